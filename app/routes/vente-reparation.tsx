import type { Route } from "./+types/vente-reparation";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Vente et réparation", description: "Vente et réparation — page en construction.", path: "/vente-reparation" });

export default function Page() {
  return <PageHero title="Vente et réparation" />;
}
