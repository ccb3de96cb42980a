import type { Route } from "./+types/solutions-pro";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Solutions professionnelles", description: "Solutions professionnelles — page en construction.", path: "/solutions-pro" });

export default function Page() {
  return <PageHero title="Solutions professionnelles" />;
}
