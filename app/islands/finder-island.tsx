/** The model finder hydrated alone on a content page (issue 16, docs/decisions/013). */
import { hydrateRoot } from "react-dom/client";
import { ModelFinder, type ModelFinderProps } from "#app/components/finder/model-finder.tsx";

/** Hydrates the finder server-rendered inside `container` by `<Island name="finder">`. */
export function mount(container: HTMLElement, props: ModelFinderProps): void {
  hydrateRoot(container, <ModelFinder {...props} />);
}
