/**
 * The model finder in its page section (issue 3: "on the repair pages and the home page"), with
 * the same heading and help text everywhere; scoped by family or brand on catalogue pages.
 * The finder is an island (issue 16, docs/decisions/013): the content pages hydrate it alone.
 */
import { Island } from "#app/islands/island.tsx";
import { Section } from "#app/components/ui/section.tsx";
import { ModelFinder, type ModelFinderProps } from "./model-finder";

type Props = Omit<ModelFinderProps, "className" | "id"> & {
  /** Help text under the heading. */
  intro?: string;
};

const DEFAULT_INTRO =
  "Tapez votre modèle, et la panne si vous la connaissez : nos prix «\u00a0à partir de\u00a0» s'affichent aussitôt. Pour un tarif précis, le diagnostic est gratuit.";

/** The section's id; the finder's ids derive from it (one finder per page). */
const SECTION_ID = "prix";

export function FinderSection({ intro = DEFAULT_INTRO, ...finder }: Props) {
  return (
    <Section id={SECTION_ID} title={"Quel est le prix de ma réparation\u00a0?"} intro={intro}>
      <Island name="finder" component={ModelFinder} props={{ ...finder, id: `${SECTION_ID}-modele` }} />
    </Section>
  );
}
