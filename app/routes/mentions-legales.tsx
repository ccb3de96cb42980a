import type { Route } from "./+types/mentions-legales";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Mentions légales", description: "Mentions légales — page en construction.", path: "/mentions-legales" });

export default function Page() {
  return <PageHero title="Mentions légales" />;
}
