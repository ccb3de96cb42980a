/**
 * The information notice under each request form (GDPR articles 13 and 14,
 * issue 4): who processes the data, why, on what legal basis, for how long,
 * and how to exercise one's rights.
 */
import { Link } from "react-router";
import { formatRetentionDays, RETENTION } from "#app/config/retention.ts";
import { dataControllerName } from "#app/config/placeholders.ts";
import { mailtoHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { cn } from "#app/utils/cn.ts";

const linkClass =
  "font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

type GdprNoticeProps = {
  /** What the data is for, completing "… pour ", e.g. "répondre à votre message". */
  purpose: string;
  /** The GDPR legal basis, completing "Base légale : ". */
  legalBasis: string;
  /** How long it is kept, completing "conservées …", e.g. "1 an après la date du rendez-vous"; default the requests' period. */
  kept?: string;
  className?: string;
};

/**
 * Small print under a form: controller (issue 40: the shop's name while the legal entity is still the
 * example, `dataControllerName`), purpose, legal basis, retention (`RETENTION.requestDays`, issue 13 §11),
 * rights and the CNIL.
 */
export function GdprNotice({ purpose, legalBasis, kept, className }: GdprNoticeProps) {
  const shop = useShop();
  return (
    <div className={cn("flex flex-col gap-2 text-sm text-slate-300", className)}>
      <p>
        Les informations saisies sont traitées par {dataControllerName(shop)}, responsable du traitement, pour {purpose}
        . Base légale : {legalBasis}. Elles ne sont ni vendues ni cédées, et sont conservées{" "}
        {kept ?? `${formatRetentionDays(RETENTION.requestDays)} après notre dernier contact`}, puis supprimées.
      </p>
      <p>
        Vous pouvez exercer vos droits d'accès, de rectification, d'effacement et d'opposition en nous écrivant à{" "}
        <a className={`${linkClass} break-all`} href={mailtoHref(shop)}>
          {shop.email}
        </a>{" "}
        (voir nos{" "}
        <Link className={linkClass} to="/mentions-legales#protection-des-donnees-personnelles-titre">
          mentions légales
        </Link>
        ). Vous pouvez aussi adresser une réclamation à la{" "}
        <a className={linkClass} href="https://www.cnil.fr/fr/plaintes">
          CNIL
        </a>
        .
      </p>
    </div>
  );
}
