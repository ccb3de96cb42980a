import type { Route } from "./+types/repair";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Réparation", description: "Réparation — page en construction.", path: "/repair" });

export default function Page() {
  return <PageHero title="Réparation" />;
}
