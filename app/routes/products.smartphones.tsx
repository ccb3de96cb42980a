import type { Route } from "./+types/products.smartphones";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Smartphones neufs et reconditionnés", description: "Smartphones neufs et reconditionnés — page en construction.", path: "/products/smartphones" });

export default function Page() {
  return <PageHero title="Smartphones neufs et reconditionnés" />;
}
