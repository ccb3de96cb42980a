/**
 * Command line of the desktop app (issue 15, "What the customer does"), in
 * French: `--server`, `--code`, `--interface` (issue 27), `--help`,
 * `--version`, `--sans-informations` (issue 38 §4: the computer's facts are not sent), and (issue 36 §4, not in the help: the app gives it to itself
 * when relaunched as administrator) `--reprendre FICHIER`. Pure: no I/O, so
 * it is tested directly.
 */
import { parseArgs } from "node:util";
import { PairingCode } from "#app/remote-support/device-protocol.ts";
import { APP_NAME, APP_VERSION } from "./version.ts";
import { INTERFACE_KINDS, type InterfaceKind } from "./views/view.ts";
import { FACTS_CONSENT_TEXTS } from "./facts/consent.ts";

/**
 * What the command line asks for. `code`: canonical pairing code, or null to prompt for it; `interface`: the one
 * `--interface` forces (issue 27), or null to choose by itself.
 */
export type CliCommand =
  | { kind: "help"; text: string; interface: InterfaceKind | null }
  | { kind: "version"; text: string }
  | {
      kind: "run";
      server: string;
      code: string | null;
      interface: InterfaceKind | null;
      resume?: string;
      /** Issue 38 §4: `--sans-informations`, the computer's facts are not sent (absent: they are, if the customer agrees). */
      noFacts?: true;
    }
  | { kind: "error"; message: string };

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Checks a server address and returns its origin ("https://atelier.example").
 * Only https, except plain http to this very computer (tests, development).
 * Throws an Error with a French message otherwise.
 */
export function normalizeServerUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`Adresse de serveur invalide : « ${input} ». Exemple : --server https://atelier.example`);
  }
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(
      "Le serveur doit être joint en https:// (connexion chiffrée et certificat vérifié). " +
        "http:// n'est accepté que pour localhost.",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`Adresse de serveur invalide : « ${input} » (https:// attendu).`);
  }
  // Socket.IO would read a path as a namespace: only the server's root is supported.
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password) {
    throw new Error(`L'adresse du serveur doit être de la forme https://atelier.example (sans chemin) : « ${input} ».`);
  }
  return url.origin;
}

/** The name the help text gives the program when the launcher does not say (the download is `atelier-assistance-<version>-<os>`). */
export const DEFAULT_PROGRAM_NAME = "atelier-assistance";

/**
 * The `--help` text. `defaultServer`: the address this copy carries (or `ATELIER_SERVER`), if any; `programName`:
 * how the customer launched it (the downloaded file's name), so the usage line can be typed as shown.
 */
export function helpText(
  defaultServer: string | undefined,
  programName = DEFAULT_PROGRAM_NAME,
  platform: NodeJS.Platform = process.platform,
): string {
  // Issue 36 §3: the help tells what this system really offers (zenity's dialogs exist on Linux only).
  const interfaces = platform === "linux" ? "fenetre, zenity ou terminal" : "fenetre ou terminal";
  const terminal = platform === "win32" ? "la console" : "le terminal";
  return [
    `${APP_NAME} — version ${APP_VERSION}`,
    "",
    "Ce logiciel permet à un technicien de l'Atelier de voir l'écran de cet ordinateur et d'en prendre la main,",
    "seulement si vous l'autorisez, et seulement pendant que le logiciel est ouvert.",
    "",
    "Utilisation :",
    `  ${programName}                 ouvre une session : un code s'affiche, donnez-le au technicien`,
    `  ${programName} --code CODE     rejoint la session ouverte sur notre site (code d'appairage de la page)`,
    "",
    "Options :",
    "  --code CODE        le code d'appairage affiché sur la page de votre session (sinon, il peut être tapé au démarrage)",
    `  --server ADRESSE   l'adresse du serveur (par défaut : ${defaultServer ?? "aucune, à indiquer"})`,
    `  --interface NOM    ${interfaces} (par défaut : la première qui fonctionne, dans cet ordre)`,
    FACTS_CONSENT_TEXTS.help,
    "  --help             affiche cette aide",
    "  --version          affiche la version",
    "",
    "Dans la fenêtre, des boutons autorisent à voir l'écran, autorisent le contrôle, reprennent la main ou arrêtent",
    `l'assistance ; fermer la fenêtre arrête tout. Dans ${terminal} : V autorise (ou retire) l'affichage de l'écran,`,
    `C autorise le contrôle, R reprend la main, Ctrl+C (ou fermer ${terminal}) arrête tout.`,
  ].join("\n");
}

/**
 * Parses `args` (without the executable and script: `process.argv.slice(2)`).
 * `defaultServer`: `ATELIER_SERVER`, else the address the download carries (issue 29; undefined when
 * none); `programName` and `platform`: for `--help`. Never throws: mistakes come back as `{ kind: "error" }` in French.
 */
export function parseCli(
  args: readonly string[],
  defaultServer: string | undefined,
  programName: string = DEFAULT_PROGRAM_NAME,
  platform: NodeJS.Platform = process.platform,
): CliCommand {
  let values: {
    server?: string;
    code?: string;
    interface?: string;
    reprendre?: string;
    "sans-informations"?: boolean;
    help?: boolean;
    version?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        server: { type: "string", short: "s" },
        code: { type: "string", short: "c" },
        interface: { type: "string", short: "i" },
        // Issue 36 §4: the resume file of the app relaunched as administrator (`elevation/resume-file.ts`).
        reprendre: { type: "string" },
        "sans-informations": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: "error", message: `${frenchArgError(error)} Tapez --help pour l'aide.` };
  }
  const forced = values.interface === undefined ? null : values.interface.trim().toLowerCase().replace("ê", "e");
  if (forced !== null && !INTERFACE_KINDS.includes(forced as InterfaceKind)) {
    return {
      kind: "error",
      message: `Interface inconnue : « ${values.interface} » (fenetre, zenity ou terminal). Tapez --help pour l'aide.`,
    };
  }
  const chosen = forced as InterfaceKind | null;
  if (values.help) return { kind: "help", text: helpText(defaultServer, programName, platform), interface: chosen };
  if (values.version) return { kind: "version", text: `${APP_NAME} ${APP_VERSION}` };

  const rawServer = values.server ?? defaultServer;
  if (!rawServer) {
    return {
      kind: "error",
      message:
        "Aucune adresse de serveur n'accompagne ce logiciel (il n'a pas été téléchargé depuis le site de " +
        "l'Atelier) : indiquez-la avec --server, par exemple --server https://atelier.example",
    };
  }
  let server: string;
  try {
    server = normalizeServerUrl(rawServer);
  } catch (error) {
    return { kind: "error", message: (error as Error).message };
  }
  const facts = values["sans-informations"] ? { noFacts: true as const } : {};
  if (values.reprendre !== undefined)
    return { kind: "run", server, code: null, interface: chosen, resume: values.reprendre, ...facts };
  if (values.code === undefined) return { kind: "run", server, code: null, interface: chosen, ...facts };
  const code = PairingCode.safeParse(values.code);
  if (!code.success) return { kind: "error", message: code.error.issues[0]?.message ?? "Code d'appairage invalide." };
  return { kind: "run", server, code: code.data, interface: chosen, ...facts };
}

/** node:util's parseArgs errors are English; the customer reads French. */
function frenchArgError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1];
  if (/argument missing|requires an argument/i.test(message)) return `L'option ${option ?? ""} attend une valeur.`;
  if (/unknown option/i.test(message)) return `Option inconnue : ${option ?? message}.`;
  if (/positional/i.test(message)) return "Argument inattendu.";
  return `Option invalide (${message}).`;
}
