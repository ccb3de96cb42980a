/**
 * Server markup of an island (issue 16, docs/decisions/013): a `display: contents` container that
 * holds the component rendered with `props`, and those props as JSON, so that the islands script
 * (`main.ts`) can hydrate exactly that component alone with the same props. On a fully hydrated
 * page the container is an inert wrapper and the component works as usual.
 */
import type { ComponentType } from "react";
import { ISLAND_ATTRIBUTE, type IslandName } from "./names.ts";

type IslandProps<P extends object> = {
  /** Which island script hydrates it (`main.ts`). */
  name: IslandName;
  component: ComponentType<P>;
  /** The component's props: only JSON values (they travel in the HTML). */
  props: P;
};

export function Island<P extends object>({ name, component: Component, props }: IslandProps<P>) {
  return (
    <div {...{ [ISLAND_ATTRIBUTE]: name }} data-props={JSON.stringify(props)} className="contents">
      <Component {...props} />
    </div>
  );
}
