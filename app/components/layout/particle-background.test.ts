import { describe, expect, it } from "vitest";
import { particleCount } from "./particles.ts";

describe("particleCount", () => {
  it("gives one particle per 15 000 px² of viewport", () => {
    expect(particleCount(1280, 720)).toBe(61);
    expect(particleCount(375, 667)).toBe(16);
    expect(particleCount(100, 100)).toBe(0);
  });
});
