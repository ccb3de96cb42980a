/**
 * Issue 27 in the app's terminal: while nobody has joined, the customer
 * reads their place in the waiting queue and the estimated wait (or the
 * shop's hours when it is closed), in the words of the site's page; once a
 * technician is there, nothing of the queue remains. Issue 29: open or
 * closed, and the hours said, are those the server sent (« Boutique »).
 */
import { describe, expect, it } from "vitest";
import { defaultShop, formatOpeningHours } from "#app/config/shop.ts";
import { STATE } from "../test/fake-server.ts";
import { renderScreen, waitingLines, type ScreenModel } from "./ui.ts";

const WAITING: ScreenModel = {
  server: "https://atelier.example",
  computerName: "PC-SALON",
  phase: "connected",
  customerName: "Marie",
  state: { ...STATE, technicianName: null, controlActive: false },
  injection: { ok: true },
  withdrawnHere: false,
  notices: [],
  keys: true,
  sessionCode: "ACDE34",
  waiting: { place: 2, total: 3, estimatedMinutes: 30 },
};

describe("the waiting queue in the terminal", () => {
  it("shows the place and the estimate while the shop is open, its hours while it is closed", () => {
    expect(waitingLines(WAITING, new Date("2026-01-05T10:00:00Z"))).toEqual([
      "Votre place dans la file d'attente : 2 (1 personne avant vous).",
      "Attente estimée : environ 30 min.",
    ]);
    expect(waitingLines(WAITING, new Date("2026-01-11T10:00:00Z"))).toContain(
      "L'atelier est fermé en ce moment : un technicien vous répondra dès l'ouverture.",
    );
    expect(renderScreen(WAITING)).toContain("Votre place dans la file d'attente : 2 (1 personne avant vous).");
  });

  it("follows the hours the server sent, not the build's defaults (issue 29)", () => {
    const saturdays = [{ days: [6], opens: "10:00", closes: "12:30", byAppointment: false }];
    const shop = { ...WAITING, waiting: { ...WAITING.waiting!, openingHours: saturdays } };
    // Monday 11:00 in Paris: open by the defaults, closed by the shop's own hours.
    const monday = new Date("2026-01-05T10:00:00Z");
    expect(waitingLines(shop, monday)).toEqual([
      "Votre place dans la file d'attente : 2 (1 personne avant vous).",
      "L'atelier est fermé en ce moment : un technicien vous répondra dès l'ouverture.",
      "Horaires : Le samedi : 10h – 12h30.",
    ]);
    expect(waitingLines(shop, monday).join("\n")).not.toContain(formatOpeningHours(defaultShop.openingHours)[0]);
    // Saturday 11:00 in Paris: closed by the defaults, open by the shop's.
    expect(waitingLines(shop, new Date("2026-01-10T10:00:00Z"))).toContain("Attente estimée : environ 30 min.");
    // A server older than issue 29 sends no hours: the defaults, in their words.
    expect(waitingLines(WAITING, new Date("2026-01-11T10:00:00Z"))).toContain(
      `Horaires : ${formatOpeningHours(defaultShop.openingHours).join(" ; ")}.`,
    );
  });

  it("says nothing of the queue once a technician joined, or when not waiting", () => {
    const joined = { ...WAITING, state: { ...STATE, technicianName: "Jean" } };
    expect(waitingLines(joined)).toEqual([]);
    expect(renderScreen(joined)).not.toContain("file d'attente");
    expect(renderScreen({ ...WAITING, waiting: null })).not.toContain("file d'attente");
  });
});
