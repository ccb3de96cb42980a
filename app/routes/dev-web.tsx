import type { Route } from "./+types/dev-web";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Développement web", description: "Développement web — page en construction.", path: "/dev-web" });

export default function Page() {
  return <PageHero title="Développement web" />;
}
