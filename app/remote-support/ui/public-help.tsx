/**
 * Issue 40 (« Customers of remote help », first point): what a signed-out visitor of /soft-assist reads
 * first, « Obtenir de l'aide ». What remote help is, its three steps (download and run the app, no account
 * and nothing to install; give the code it shows to the technician on the shop's phone; the technician sees
 * and acts only with the customer's consent, who can stop at any time), what it costs, and the app's
 * download for the visitor's system with the other systems below.
 *
 * Rendered by the server only (the signed-out page is an islands page, docs/decisions/029): the links are
 * real links to the files (`download-item.tsx`), the visitor's system comes from the request's headers
 * (`platformOfRequest`) and the builds from the server's own list (`downloads-context.ts`). Every fact
 * has one source: the phone from the shop's identity (`useShop`), the price from the technician's hourly
 * rate (`TECHNICIAN_HOURLY_RATE_EUROS`, the one the assistant states), the desktop app's steps from
 * docs/desktop-app.md.
 */
import { useId, type ReactNode } from "react";
import { Card } from "#app/components/ui/card.tsx";
import { formatEuros, TECHNICIAN_HOURLY_RATE_EUROS, telHref } from "#app/config/shop.ts";
import { splitDownloads } from "#app/remote-support/client/downloads.ts";
import { PLATFORM_NAMES, type DevicePlatform, type DownloadView } from "#app/remote-support/device-protocol.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { DownloadItem } from "./download-item";

/** Where the section's download part starts (the first step links to it). */
export const DOWNLOAD_ANCHOR = "telecharger";

const link =
  "font-semibold text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/**
 * @param downloads the builds the server offers (empty when none was built)
 * @param platform the visitor's system as the server guessed it; null for a phone, a tablet or an unknown one
 */
export function PublicHelp({ downloads, platform }: { downloads: DownloadView[]; platform: DevicePlatform | null }) {
  const shop = useShop();
  const headingId = useId();
  const phone = (
    <a className={link} href={telHref(shop)}>
      {shop.phone.display}
    </a>
  );
  return (
    <section aria-labelledby={headingId}>
      <Card className="flex flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h2 id={headingId} className="text-3xl font-bold text-white">
            Obtenir de l'aide
          </h2>
          <p className="text-lg text-slate-300">
            Un technicien de l'atelier se connecte à votre ordinateur à travers notre logiciel, voit votre écran et
            règle le problème avec vous, sans que vous ayez à vous déplacer. Vous n'avez pas besoin de compte.
          </p>
        </div>
        <ol className="grid gap-4 md:grid-cols-3">
          <Step number={1} title="Téléchargez et lancez le logiciel">
            Choisissez{" "}
            <a className={link} href={`#${DOWNLOAD_ANCHOR}`}>
              la version pour votre ordinateur
            </a>{" "}
            et ouvrez le fichier téléchargé. Aucun compte à créer, rien à installer.
          </Step>
          <Step number={2} title="Donnez le code au technicien">
            Le logiciel affiche un code de session. Appelez l'atelier au {phone} et donnez ce code au technicien.
          </Step>
          <Step number={3} title="Le technicien vous aide, avec votre accord">
            Il ne voit votre écran et ne prend la main que si vous l'autorisez dans le logiciel. Vous voyez ce qu'il
            fait et pouvez arrêter à tout moment.
          </Step>
        </ol>
        <div className="flex flex-col gap-2">
          <h3 className="text-xl font-semibold text-white">Combien ça coûte ?</h3>
          <p className="text-slate-300">
            Le logiciel est gratuit. Un technicien intervient à distance au tarif de{" "}
            {formatEuros(TECHNICIAN_HOURLY_RATE_EUROS)} de l'heure, comme à l'atelier.
          </p>
        </div>
        <Downloads downloads={downloads} platform={platform} phone={phone} />
      </Card>
    </section>
  );
}

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-slate-700 p-4">
      <h3 className="flex items-center gap-3 text-lg font-semibold text-white">
        {/* The list already numbers its items for screen readers. */}
        <span
          aria-hidden="true"
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-sky-300 font-bold text-slate-950"
        >
          {number}
        </span>
        {title}
      </h3>
      <p className="text-slate-300">{children}</p>
    </li>
  );
}

/** The download part: the visitor's system first, the others in a disclosure (native, no JavaScript). */
function Downloads({
  downloads,
  platform,
  phone,
}: {
  downloads: DownloadView[];
  platform: DevicePlatform | null;
  phone: ReactNode;
}) {
  const { yours, others } = splitDownloads(downloads, platform);
  return (
    <div className="flex flex-col gap-3">
      <h3 id={DOWNLOAD_ANCHOR} className="scroll-mt-28 text-xl font-semibold text-white">
        Télécharger le logiciel
      </h3>
      {downloads.length === 0 ? (
        <p className="text-slate-300">
          Le logiciel n'est pas disponible sur ce serveur pour le moment : appelez-nous au {phone}, un technicien vous
          guidera.
        </p>
      ) : yours.length > 0 ? (
        <>
          <ul aria-label={`Pour votre système (${PLATFORM_NAMES[platform!]})`} className="flex flex-col gap-3">
            {yours.map((download, index) => (
              <DownloadItem key={download.fileName} download={download} primary={index === 0} />
            ))}
          </ul>
          {others.length > 0 ? (
            <details className="rounded-xl border border-slate-700 p-4">
              <summary className="cursor-pointer font-semibold text-white">Autres systèmes</summary>
              <ul className="mt-3 flex flex-col gap-3">
                {others.map((download) => (
                  <DownloadItem key={download.fileName} download={download} primary={false} />
                ))}
              </ul>
            </details>
          ) : null}
        </>
      ) : (
        <>
          <p className="text-slate-300">
            {platform ? (
              <>
                Le logiciel n'est pas encore proposé pour {PLATFORM_NAMES[platform]} : appelez-nous au {phone}, ou
                choisissez un autre système.
              </>
            ) : (
              "Le logiciel fonctionne sur ordinateur : choisissez le système de l'ordinateur à dépanner."
            )}
          </p>
          <ul aria-label="Choisissez votre système" className="flex flex-col gap-3">
            {others.map((download) => (
              <DownloadItem key={download.fileName} download={download} primary={false} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
