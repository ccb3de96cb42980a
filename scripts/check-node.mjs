// @ts-check
/**
 * Fails fast when a script runs on anything but the project's pinned Node 24
 * (e.g. `npm ci --ignore-scripts` skipped the `node` package's preinstall and
 * npm fell back to the machine's Node 20).
 */
const major = Number(process.versions.node.split(".")[0]);
if (major !== 24) {
  console.error(
    `Node ${process.versions.node} détecté : ce projet s'exécute sur Node 24 (paquet npm "node"). ` +
      "Lancez `npm ci` (sans --ignore-scripts) puis relancez la commande via npm.",
  );
  process.exit(1);
}
