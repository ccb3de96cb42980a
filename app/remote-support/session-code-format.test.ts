/**
 * Issue 40: one way of writing a session code for people, on the customer's page, the dashboard and the desktop app
 * (`formatSessionCode`: « K7W 9GA »), and whatever way it is typed back still names the same session.
 */
import { describe, expect, it } from "vitest";
import { formatSessionCode, normalizeSessionCode, SessionCode } from "./protocol.ts";
import { formatPairingCode } from "./device-protocol.ts";

describe("formatSessionCode", () => {
  it("writes a session code as two groups of three, whatever its typed form", () => {
    expect(formatSessionCode("K7W9GA")).toBe("K7W 9GA");
    expect(formatSessionCode("k7w-9ga")).toBe("K7W 9GA");
    expect(formatSessionCode(" K7W 9GA ")).toBe("K7W 9GA");
    // Not a session code's length: only normalized, never cut.
    expect(formatSessionCode("abcd")).toBe("ABCD");
  });

  it("reads back as the code it writes, with or without the space or a dash", () => {
    for (const typed of [formatSessionCode("K7W9GA"), "k7w9ga", "K7W-9GA", "k7w 9ga"])
      expect(SessionCode.parse(typed)).toBe("K7W9GA");
    expect(normalizeSessionCode(formatSessionCode("ACDEFG"))).toBe("ACDEFG");
  });

  it("is not the pairing code's form: the two codes cannot be mistaken for each other", () => {
    expect(formatPairingCode("ACDE3479")).toBe("ACDE-3479");
    expect(formatSessionCode("ACDE34")).not.toContain("-");
  });
});
