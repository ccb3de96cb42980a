// @vitest-environment happy-dom
/**
 * Issue 40, the « Réparations » view asked for a ticket by its code (the
 * agenda's link, `?reparation=`), against a stubbed API: it reads the ticket
 * by that code, shows its panel and moves the focus there; an unknown code
 * is said in French.
 */
import { render, screen, waitFor } from "@testing-library/react";
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
});
