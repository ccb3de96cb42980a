/**
 * The desktop app's download panel on the customer screen (issue 15; spec §2
 * "Panel about the remote-control software", its two cards kept): the build
 * for the visitor's system first, the others below, each with its version,
 * size and SHA-256, served by our own server. The builds are not signed, so
 * the first launch asks for one more click: the steps are in `download-item.tsx`
 * (shared with the signed-out page's « Obtenir de l'aide », issue 40).
 */
import { Gauge, ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { Card } from "#app/components/ui/card.tsx";
import { getDownloads } from "#app/remote-support/client/api.ts";
import { detectPlatform, orderDownloads } from "#app/remote-support/client/downloads.ts";
import type { DevicePlatform, DownloadView } from "#app/remote-support/device-protocol.ts";
import { DownloadItem } from "./download-item";

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
