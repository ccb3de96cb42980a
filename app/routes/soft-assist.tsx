/**
 * /soft-assist (spec §2 "Remote-support entry"). The signed-in area (sign-in, customer assistant,
 * technician dashboard) arrives with issue 5; until then this page says how to get help now.
 */
import type { Route } from "./+types/soft-assist";
import { ButtonLink } from "~/components/ui/button";
import { PageHero } from "~/components/ui/section";
import { shop, telHref } from "~/config/shop";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Assistance à distance",
    description: "Espace d'assistance à distance : connexion, assistant virtuel et partage d'écran avec un technicien.",
    path: "/soft-assist",
    noindex: true,
  });

export default function SoftAssist() {
  return (
    <PageHero
      title="Assistance à distance"
      subtitle="L'espace client (connexion, assistant virtuel et partage d'écran avec un technicien) ouvre bientôt. En attendant, nos techniciens vous dépannent par téléphone ou en magasin."
    >
      <ButtonLink to={telHref}>Appeler le {shop.phone.display}</ButtonLink>
      <ButtonLink to="/contact" variant="secondary">
        Nous contacter
      </ButtonLink>
    </PageHero>
  );
}
