/**
 * The desktop app's download panel on the customer screen (issue 15; spec §2
 * "Panel about the remote-control software", its two cards kept): the build
 * for the visitor's system first, the others below, each with its version,
 * size and SHA-256, served by our own server. The builds are not signed, so
 * the first launch asks for one more click: the steps are written here.
 */
import { Download, Gauge, ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { Card } from "#app/components/ui/card.tsx";
import { getDownloads } from "#app/remote-support/client/api.ts";
import { detectPlatform, formatBytes, orderDownloads } from "#app/remote-support/client/downloads.ts";
import type { DevicePlatform, DownloadView } from "#app/remote-support/device-protocol.ts";

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

function DownloadItem({ download, primary }: { download: DownloadView; primary: boolean }) {
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

export function DownloadPanel() {
  const [downloads, setDownloads] = useState<DownloadView[] | null>(null);
  const [platform, setPlatform] = useState<DevicePlatform | null>(null);

  useEffect(() => {
    const hint = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform;
    setPlatform(detectPlatform(navigator.userAgent, hint));
    void getDownloads().then((result) => setDownloads(result.ok ? result.data.downloads : []));
  }, []);

  const ordered = orderDownloads(downloads ?? [], platform);
  const [first, ...others] = platform && ordered[0]?.platform === platform ? ordered : [undefined, ...ordered];

  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-white">Logiciel de contrôle à distance</h2>
      <p className="text-slate-300">
        Pour que le technicien puisse cliquer et taper sur votre ordinateur, installez notre logiciel (Windows, macOS et
        Linux), lancez-le pendant votre session et saisissez le code d'appairage affiché ci-dessus. Rien ne se passe
        sans votre accord, et vous reprenez la main quand vous voulez.
      </p>
      <ul className="grid gap-4 sm:grid-cols-2">
        <li className="rounded-xl border border-slate-700 p-4">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-white">
            <ShieldCheck aria-hidden="true" className="size-5 text-sky-300" />
            Sécurité maximale
          </h3>
          <p className="mt-1 text-slate-300">Connexion chiffrée, et rien ne se passe sans votre accord.</p>
        </li>
        <li className="rounded-xl border border-slate-700 p-4">
          <h3 className="flex items-center gap-2 text-lg font-semibold text-white">
            <Gauge aria-hidden="true" className="size-5 text-sky-300" />
            Performance optimale
          </h3>
          <p className="mt-1 text-slate-300">Une image fluide, même avec une connexion modeste.</p>
        </li>
      </ul>
      {downloads === null ? (
        <p role="status" className="text-slate-300">
          Chargement des téléchargements…
        </p>
      ) : downloads.length === 0 ? (
        <p className="text-slate-300">
          Le logiciel n'est pas disponible sur ce serveur pour le moment : appelez-nous, un technicien vous guidera.
        </p>
      ) : (
        <>
          {first ? (
            <ul aria-label="Pour votre système" className="flex flex-col gap-3">
              <DownloadItem download={first} primary />
            </ul>
          ) : null}
          <h3 className="text-lg font-semibold text-white">{first ? "Autres systèmes" : "Choisissez votre système"}</h3>
          <ul className="flex flex-col gap-3">
            {others.flatMap((download) =>
              download ? [<DownloadItem key={download.fileName} download={download} primary={false} />] : [],
            )}
          </ul>
        </>
      )}
    </Card>
  );
}
