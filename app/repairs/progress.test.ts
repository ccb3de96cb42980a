/**
 * Issue 30 §2, the steps of /suivi: the events in order, the last one
 * current, then the statuses after the current one in the order of
 * `REPAIR_STEPS`; « Devis à valider » ahead only "if needed"; nothing ahead
 * of a closed ticket; « En réparation » not announced after a refused quote.
 */
import { describe, expect, it } from "vitest";
import type { PublicRepairTicket } from "./protocol.ts";
import { repairProgress, type ProgressItem } from "./progress.tsx";
import type { RepairStatus } from "./statuses.ts";

const at = "2026-11-24T09:05:00.000Z";
const ticket = (statuses: RepairStatus[], quote: PublicRepairTicket["quote"] = null) => ({
  status: statuses.at(-1)!,
  events: statuses.map((status) => ({ status, note: null, at, quote: null })),
  quote,
});
/** "done:received", "upcoming:diagnosis?"… */
const summary = (items: ProgressItem[]) =>
  items.map((item) =>
    item.state === "upcoming"
      ? `upcoming:${item.status}${item.optional ? "?" : ""}`
      : `${item.state}:${item.event.status}`,
  );

describe("repairProgress", () => {
  it("lists every step after a new ticket, the quote as optional", () => {
    expect(summary(repairProgress(ticket(["received"])))).toEqual([
      "current:received",
      "upcoming:diagnosis",
      "upcoming:quote-pending?",
      "upcoming:repairing",
      "upcoming:ready",
      "upcoming:returned",
    ]);
  });

  it("goes on from the current status when steps were skipped", () => {
    expect(summary(repairProgress(ticket(["received", "repairing"])))).toEqual([
      "done:received",
      "current:repairing",
      "upcoming:ready",
      "upcoming:returned",
    ]);
  });

  it("does not announce the repair after a refused quote", () => {
    const refused = { description: "Nappe", amountEuros: 35, decision: "refused" as const, decidedAt: at };
    expect(summary(repairProgress(ticket(["received", "quote-pending", "quote-pending"], refused)))).toEqual([
      "done:received",
      "done:quote-pending",
      "current:quote-pending",
      "upcoming:ready",
      "upcoming:returned",
    ]);
  });

  it("has nothing ahead of a closed ticket", () => {
    expect(summary(repairProgress(ticket(["received", "cancelled"])))).toEqual(["done:received", "current:cancelled"]);
    expect(summary(repairProgress(ticket(["received", "ready", "returned"])))).toEqual([
      "done:received",
      "done:ready",
      "current:returned",
    ]);
  });
});
