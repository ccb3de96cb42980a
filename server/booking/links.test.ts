/**
 * Issue 18 §1: the manage links are signed and expire when the appointment
 * starts; any change to a token, another key or a late use is refused.
 * Issue 28 §9: they carry the link version a move raises.
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
    expect(links.verify(token, BEFORE)).toEqual({ id: ID, version: 0 });
    expect(links.verify(token, START)).toBeNull();
  });

  // Issue 28 §9: the version a move raises is signed in; an unmoved appointment keeps the three-part link.
  it("signs the link version after a move, and keeps the links mailed before it readable", () => {
    expect(token.split(".")).toHaveLength(3);
    const moved = links.sign(ID, START, 2);
    expect(moved.split(".")).toHaveLength(4);
    expect(links.verify(moved, BEFORE)).toEqual({ id: ID, version: 2 });
    // The version cannot be edited, nor dropped, nor spelled another way.
    const [id, expiry, , mac] = moved.split(".");
    for (const forged of [`${id}.${expiry}.3.${mac}`, `${id}.${expiry}.${mac}`, `${id}.${expiry}.02.${mac}`])
      expect(links.verify(forged, BEFORE), forged).toBeNull();
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
