/**
 * Issue 14: each browser path is its Express pattern under `/api`, with the
 * session code percent-encoded in place of `:code`.
 */
import { describe, expect, it } from "vitest";
import { API_PATHS, API_ROUTES } from "./api-paths";

describe("API_PATHS", () => {
  it("gives the full path of each route, a function of the code where the pattern has one", () => {
    expect(API_PATHS.history).toBe("/api/sessions/history");
    expect(API_PATHS.auth).toBe("/api/auth");
    expect(API_PATHS.report("ACDE34")).toBe("/api/sessions/ACDE34/report");
    expect(API_PATHS.events("A/B C")).toBe("/api/sessions/A%2FB%20C/events");
    for (const [key, pattern] of Object.entries(API_ROUTES)) {
      const path = API_PATHS[key as keyof typeof API_PATHS];
      expect(typeof path === "function" ? path("XYZ") : path).toBe(`/api${pattern.replace(":code", "XYZ")}`);
    }
  });
});
