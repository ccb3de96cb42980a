import type { Route } from "./+types/gaming-vr";
import { PageHero } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, { title: "Gaming et Réalité Virtuelle", description: "Gaming et Réalité Virtuelle — page en construction.", path: "/gaming-vr" });

export default function Page() {
  return <PageHero title="Gaming et Réalité Virtuelle" />;
}
