/**
 * The browser's entry (React Router's default), plus issue 27: the text of
 * marked fields is kept from before hydration (`typed-before-hydration.ts`),
 * so that a screen React renders afresh gets back what the person typed.
 */
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { recordTypedBeforeHydration } from "#app/utils/typed-before-hydration.ts";

recordTypedBeforeHydration(document);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
