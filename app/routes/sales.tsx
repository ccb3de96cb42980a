import type { Route } from "./+types/sales";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Découvrez notre sélection", description: "Découvrez notre sélection — page en construction.", path: "/sales" });

export default function Page() {
  return <PageHero title="Découvrez notre sélection" />;
}
