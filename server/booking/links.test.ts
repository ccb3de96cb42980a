/**
 * Issue 18 §1: the manage links are signed and expire when the appointment
 * starts; any change to a token, another key or a late use is refused.
 */
import { describe, expect, it } from "vitest";
import { createManageLinks } from "./links.ts";

const ID = "3f2c8a4e-1b2d-4c3e-9f00-123456789abc";
const START = new Date("2026-12-01T09:00:00Z");
const BEFORE = new Date("2026-11-30T09:00:00Z");

describe("manage links", () => {
  const links = createManageLinks("k".repeat(40));
  const token = links.sign(ID, START);

  it("gives back the appointment for an authentic token before the appointment starts", () => {
    expect(links.verify(token, BEFORE)).toBe(ID);
    expect(links.verify(token, START)).toBeNull();
  });

  it("refuses every one-character change, another key, and garbage", () => {
    for (let index = 0; index < token.length; index++) {
      for (const replacement of ["A", "b", "0", "-"]) {
        if (token[index] === replacement) continue;
        const changed = `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
        expect(links.verify(changed, BEFORE), changed).toBeNull();
      }
    }
    expect(createManageLinks("z".repeat(40)).verify(token, BEFORE)).toBeNull();
    for (const garbage of ["", "a.b.c", `${token}.x`, "x".repeat(500), `${ID}.zzzzzzzzzz.${"A".repeat(22)}`]) {
      expect(links.verify(garbage, BEFORE)).toBeNull();
    }
  });
});
