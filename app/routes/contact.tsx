import type { Route } from "./+types/contact";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Contact", description: "Contact — page en construction.", path: "/contact" });

export default function Page() {
  return <PageHero title="Contact" />;
}
