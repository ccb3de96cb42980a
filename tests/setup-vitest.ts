import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// findBy*/waitFor default to 1 s; the database tests running beside the component tests on 2 cores can stall a render longer.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  if (typeof document !== "undefined") cleanup();
});
