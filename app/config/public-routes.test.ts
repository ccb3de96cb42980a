/** The pre-rendered path list covers the whole repair catalogue (repair catalogue §2; issue 3). */
import { describe, expect, it } from "vitest";
import { brands } from "~/catalogue";
import { PRERENDERED_PATHS } from "./public-routes";

const listed: readonly string[] = PRERENDERED_PATHS;

describe("PRERENDERED_PATHS", () => {
  it("holds every catalogue brand page", () => {
    expect(brands).toHaveLength(22);
    for (const brand of brands) expect(listed, brand.slug).toContain(brand.path);
  });

  it("holds the four category pages", () => {
    for (const path of ["/services/pc-repair", "/services/smartphone-repair", "/services/tablet-repair", "/services/console-repair"]) {
      expect(listed).toContain(path);
    }
  });

  it("lists exactly the 26 repair pages of spec §2 under /services/", () => {
    expect(listed.filter((path) => path.startsWith("/services/"))).toHaveLength(26);
  });

  it("has no duplicate", () => {
    expect(new Set(listed).size).toBe(listed.length);
  });
});
