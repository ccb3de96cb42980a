import type { Route } from "./+types/soft-assist";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Assistance à distance", description: "Assistance à distance — page en construction.", path: "/soft-assist" });

export default function Page() {
  return <PageHero title="Assistance à distance" />;
}
