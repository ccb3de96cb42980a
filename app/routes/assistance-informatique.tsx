import type { Route } from "./+types/assistance-informatique";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Assistance informatique", description: "Assistance informatique — page en construction.", path: "/assistance-informatique" });

export default function Page() {
  return <PageHero title="Assistance informatique" />;
}
