import type { Route } from "./+types/home";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Accueil", description: "Accueil — page en construction.", path: "/" });

export default function Page() {
  return <PageHero title="Accueil" />;
}
