/**
 * Issue 37 §6: what the desktop app says of itself reaches technicians' screens; a name or a reason may not
 * carry a character that reorders or hides what is shown after it (bidi controls, C1, zero-width).
 */
import { describe, expect, it } from "vitest";
import { NAME_CONTROL_MESSAGE } from "#app/utils/text.ts";
import { DevicePairBody, DeviceSessionBody, Injection } from "./device-protocol.ts";
import { Capture } from "./screen-protocol.ts";

const status = { injection: { ok: true as const }, screens: [{ id: "1", x: 0, y: 0, width: 1280, height: 800 }] };
const session = { ...status, computerName: "PC-SALON", platform: "windows" as const, arch: "x64", appVersion: "0.1.0" };

describe("the app's strings (issue 37 §6)", () => {
  it("refuses a customer's or computer's name with a direction override, an isolate, C1 or a zero-width space", () => {
    for (const bad of ["Marie\u202E", "Marie\u2066x", "Marie\u0085", "Ma\u200Brie", "Marie\nPaul"]) {
      const byName = DeviceSessionBody.safeParse({ ...session, customerName: bad });
      expect(byName.success, JSON.stringify(bad)).toBe(false);
      expect(byName.error?.issues[0]?.message).toBe(NAME_CONTROL_MESSAGE);
      expect(DeviceSessionBody.safeParse({ ...session, computerName: bad }).success).toBe(false);
      expect(DevicePairBody.safeParse({ ...session, pairingCode: "ACDE-3479", computerName: bad }).success).toBe(false);
    }
    expect(DeviceSessionBody.parse({ ...session, customerName: "Marie-Ève" }).customerName).toBe("Marie-Ève");
  });

  it("keeps an OS error's line breaks as spaces in a reason, and refuses the invisible characters", () => {
    expect(Injection.parse({ ok: false, reason: "Erreur :\nbibliothèque absente" })).toEqual({
      ok: false,
      reason: "Erreur : bibliothèque absente",
    });
    expect(Injection.safeParse({ ok: false, reason: "Erreur Windows\u202E : appelez le 08 99" }).success).toBe(false);
    expect(Capture.safeParse({ ok: false, reason: "Capture\u0085impossible" }).success).toBe(false);
    expect(Capture.safeParse({ ok: false, reason: "Capture impossible (Wayland)." }).success).toBe(true);
  });
});
