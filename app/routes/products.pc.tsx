import type { Route } from "./+types/products.pc";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "PC neufs et reconditionnés", description: "PC neufs et reconditionnés — page en construction.", path: "/products/pc" });

export default function Page() {
  return <PageHero title="PC neufs et reconditionnés" />;
}
