// @vitest-environment happy-dom
/**
 * Issue 40, the link to a ticket in the dashboard: outside the dashboard it
 * is a plain link to `/soft-assist?reparation=UZFD-GY5Y` (a click follows
 * it), a click with a modifier keeps the browser's new tab; and the
 * dashboard opened at that address (a new tab, a reload) shows the
 * « Réparations » view on that ticket, stubbed API.
 */
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import TechnicianDashboard from "#app/remote-support/ui/technician-dashboard.tsx";
import { RepairLink, ShowRepairContext } from "./repair-link.tsx";
import { STAFF_TICKET } from "./ticket-testing.ts";

const TICKET = STAFF_TICKET;

afterEach(() => window.history.replaceState(null, "", "/"));

describe("RepairLink", () => {
  it("is a plain link outside the dashboard, and leaves clicks with a modifier to the browser", () => {
    const show = vi.fn();
    render(
      <>
        <RepairLink code="UZFD-GY5Y">Seul</RepairLink>
        <ShowRepairContext value={show}>
          <RepairLink code="UZFD-GY5Y">Dans le tableau de bord</RepairLink>
        </ShowRepairContext>
      </>,
    );
    const alone = screen.getByRole("link", { name: "Seul" });
    expect(alone).toHaveAttribute("href", "/soft-assist?reparation=UZFD-GY5Y");
    // `fireEvent` answers whether the default action was left to happen.
    expect(fireEvent.click(alone)).toBe(true);
    const inside = screen.getByRole("link", { name: "Dans le tableau de bord" });
    expect(fireEvent.click(inside, { ctrlKey: true })).toBe(true);
    expect(show).not.toHaveBeenCalled();
    expect(fireEvent.click(inside)).toBe(false);
    expect(show).toHaveBeenCalledWith("UZFD-GY5Y");
  });
});

describe("the dashboard at /soft-assist?reparation=UZFD-GY5Y", () => {
  it("opens the « Réparations » view on that ticket", async () => {
    window.history.replaceState(null, "", "/soft-assist?reparation=UZFD-GY5Y");
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = String(input);
      if (url === "/api/sessions/active") return Response.json({ session: null });
      if (url === "/api/sessions/history") return Response.json({ sessions: [] });
      if (url === "/api/sessions/queue") return Response.json({ entries: [], at: "2026-11-24T09:00:00.000Z" });
      if (url === "/api/repairs") return Response.json({ tickets: [] });
      if (url === "/api/repairs/UZFD-GY5Y") return Response.json({ ticket: TICKET });
      return Response.json({ message: "?" }, { status: 404 });
    });
    const user = { id: "t", name: "Camille", email: "camille@exemple.fr", isTechnician: true };
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore()} />);
    expect(await screen.findByRole("heading", { level: 3, name: "Réparation UZFD-GY5Y · Reçu" })).toBeVisible();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Réparations" })).toHaveAttribute("aria-pressed", "true"),
    );
  });
});
