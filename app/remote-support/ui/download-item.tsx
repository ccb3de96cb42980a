/**
 * One build of the desktop app offered for download (issue 15; issue 40: moved out of `download-panel.tsx`,
 * shared by the signed-in customer's panel and the signed-out page's « Obtenir de l'aide »): a real link to
 * the file served by our own server (`download` attribute, no JavaScript needed), its version, size and
 * SHA-256, and how to start it the first time on its system.
 */
import { Download } from "lucide-react";
import { formatBytes } from "#app/remote-support/client/downloads.ts";
import type { DownloadView } from "#app/remote-support/device-protocol.ts";

const linkClass =
  "inline-flex items-center gap-2 rounded-lg px-4 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** How to start a downloaded build the first time, per system (unsigned: SmartScreen, Gatekeeper, no exec bit). */
function FirstLaunch({ download }: { download: DownloadView }) {
  const file = download.fileName;
  switch (download.platform) {
    case "windows":
      return (
        <p>
          Ouvrez le fichier téléchargé. Si Windows affiche « Windows a protégé votre ordinateur », cliquez sur «
          Informations complémentaires » puis « Exécuter quand même » : notre logiciel n'est pas encore signé.
        </p>
      );
    case "macos":
      return (
        <p>
          Dans le Terminal, tapez{" "}
          <code className="break-all">
            chmod +x ~/Downloads/{file} && ~/Downloads/{file}
          </code>
          . Si macOS refuse de l'ouvrir (logiciel non signé), allez dans Réglages Système › Confidentialité et sécurité
          et cliquez sur « Ouvrir quand même ». Pour le contrôle, autorisez-le ensuite dans Confidentialité et sécurité
          › Accessibilité.
        </p>
      );
    case "linux":
      return (
        <p>
          Dans un terminal, tapez{" "}
          <code className="break-all">
            chmod +x ~/Téléchargements/{file} && ~/Téléchargements/{file}
          </code>
          . Le contrôle fonctionne dans une session X11 (pas sous Wayland).
        </p>
      );
  }
}

/** One build as a list item; `primary`: the visitor's own system (the filled button). */
export function DownloadItem({ download, primary }: { download: DownloadView; primary: boolean }) {
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-slate-700 p-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <a
          href={download.url}
          download={download.fileName}
          className={
            primary
              ? `${linkClass} bg-sky-300 text-slate-950 hover:bg-sky-200`
              : `${linkClass} border border-slate-500 text-white hover:bg-slate-800`
          }
        >
          <Download aria-hidden="true" className="size-5" />
          Télécharger pour {download.label}
        </a>
        <span className="text-slate-300">
          Version {download.version} · {formatBytes(download.bytes)}
        </span>
      </div>
      <p className="text-sm text-slate-300">
        SHA-256 : <code className="font-mono break-all text-slate-200">{download.sha256}</code>
      </p>
      <div className="text-sm text-slate-300">
        <FirstLaunch download={download} />
      </div>
    </li>
  );
}
