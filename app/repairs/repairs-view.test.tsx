// @vitest-environment happy-dom
/**
 * Issue 40, the « Réparations » view asked for a ticket by its code (the
 * agenda's link, `?reparation=`), against a stubbed API: it reads the ticket
 * by that code, shows its panel and moves the focus there; an unknown code
 * is said in French.
 */
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { RepairsView } from "./repairs-view.tsx";
import { STAFF_TICKET } from "./ticket-testing.ts";

const TICKET = STAFF_TICKET;

function stubApi() {
  const urls: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = String(input);
    urls.push(url);
    if (url === "/api/repairs") return Response.json({ tickets: [] });
    if (url === "/api/repairs/UZFD-GY5Y") return Response.json({ ticket: TICKET });
    return Response.json({ message: "Réparation introuvable." }, { status: 404 });
  });
  return urls;
}

describe("RepairsView", () => {
  it("opens the ticket a link named by its code, focus on its panel", async () => {
    const urls = stubApi();
    render(<RepairsView requested={{ code: "UZFD-GY5Y" }} />);
    const heading = await screen.findByRole("heading", { level: 3, name: "Réparation UZFD-GY5Y · Reçu" });
    expect(urls).toContain("/api/repairs/UZFD-GY5Y");
    await waitFor(() => expect(document.activeElement?.contains(heading)).toBe(true));
  });

  it("says an unknown code in French", async () => {
    stubApi();
    render(<RepairsView requested={{ code: "ZZZZ-ZZZZ" }} />);
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toContain("Réparation introuvable."),
    );
    expect(screen.queryByRole("heading", { level: 3 })).toBeNull();
  });

  it("shows the ticket clicked last when the one clicked before answers after it", async () => {
    const SECOND = { ...TICKET, id: "second-id", code: "ACDE-3479", customerName: "Paul Girard" };
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = String(input);
      if (url === "/api/repairs") return Response.json({ tickets: [TICKET, SECOND] });
      if (url === `/api/repairs/${TICKET.id}`) {
        await held;
        return Response.json({ ticket: TICKET });
      }
      if (url === "/api/repairs/second-id") return Response.json({ ticket: SECOND });
      return Response.json({ message: "?" }, { status: 404 });
    });
    render(<RepairsView />);
    const list = await screen.findByRole("list", { name: "Liste des réparations" });
    const user = userEvent.setup();
    await user.click(within(list).getByRole("button", { name: /UZFD-GY5Y/ }));
    await user.click(within(list).getByRole("button", { name: /ACDE-3479/ }));
    await screen.findByRole("heading", { level: 3, name: "Réparation ACDE-3479 · Reçu" });
    // The first ticket's answer lands (its JSON read and its state set) within the act.
    await act(async () => {
      releaseFirst();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByRole("heading", { level: 3, name: "Réparation ACDE-3479 · Reçu" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 3, name: "Réparation UZFD-GY5Y · Reçu" })).toBeNull();
  });
});
