// @vitest-environment happy-dom
/**
 * Issue 40, « « Demandes » has no « traité » state »: the view shows the requests « À traiter » (those treated
 * behind a filter, with who and when), « Marquer traitée » sends the request's kind to the server, moves the
 * focus to the view's heading and says what was done, « Remettre à traiter » puts it back, and the dashboard is
 * told each time (its tab count follows). A request deleted meanwhile (404) is said and dropped.
 */
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { TREATMENT_MESSAGES } from "./treatment.ts";
import { RequestsView } from "./requests-view.tsx";
import type { RequestView } from "./views.ts";

const base = { email: "visiteur@exemple.fr", delivery: null, treated: null };
const LEA: RequestView = {
  ...base,
  kind: "contact",
  id: "11111111-1111-4111-8111-111111111111",
  createdAt: "2026-11-29T10:00:00.000Z",
  name: "Léa Martin",
  message: "Mon écran reste noir.",
};
const DURAND: RequestView = {
  ...base,
  kind: "quote",
  id: "22222222-2222-4222-8222-222222222222",
  createdAt: "2026-11-28T10:00:00.000Z",
  companyName: "Boulangerie Durand",
  contactName: "Paul Durand",
  phone: "01 23 45 67 89",
  description: "Un site vitrine.",
  domain: "durand",
  emailOption: "mail-10",
  budget: "1 500 €",
};
const HUGO: RequestView = {
  ...base,
  kind: "contact",
  id: "33333333-3333-4333-8333-333333333333",
  createdAt: "2026-11-27T10:00:00.000Z",
  name: "Hugo Petit",
  message: "Merci !",
  treated: { at: "2026-11-27T15:30:00.000Z", byName: "Camille Tech" },
};
const AT = "2026-11-29T11:00:00.000Z";

/** `GET /api/requests` and the treatment route, which marks as asked (404 for `gone`); the bodies sent. */
function stubApi({ gone }: { gone?: string } = {}) {
  const sent: { url: string; body: unknown }[] = [];
  const all = [LEA, DURAND, HUGO];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === "/api/requests") return Response.json({ requests: all });
    const treatment = /^\/api\/requests\/([\w-]+)\/treatment$/.exec(url);
    if (treatment && init?.method === "POST") {
      const body = JSON.parse(String(init.body)) as { kind: string; treated: boolean };
      sent.push({ url, body });
      if (treatment[1] === gone) return Response.json({ message: TREATMENT_MESSAGES.notFound }, { status: 404 });
      const request = all.find((item) => item.id === treatment[1])!;
      const treated = body.treated ? { at: AT, byName: "Alex Agenda" } : null;
      return Response.json({ request: { ...request, treated } });
    }
    return Response.json({ message: "?" }, { status: 404 });
  });
  return sent;
}

const cards = () => screen.queryAllByRole("heading", { level: 3 }).map((heading) => heading.textContent);

describe("« Demandes »: « Traité » (issue 40)", () => {
  it("lists those to treat, the treated ones behind their filter with who and when", async () => {
    stubApi();
    render(<RequestsView />);
    expect(await screen.findByRole("button", { name: "À traiter (2)", pressed: true })).toBeInTheDocument();
    expect(cards()).toEqual(["Message de Léa Martin", "Devis : Boulangerie Durand (Paul Durand)"]);
    await userEvent.click(screen.getByRole("button", { name: "Traitées (1)" }));
    expect(cards()).toEqual(["Message de Hugo Petit"]);
    expect(screen.getByText("Traitée le 27/11/2026 16:30:00 par Camille Tech")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remettre à traiter : Message de Hugo Petit" })).toBeInTheDocument();
  });

  it("marks one « Traité », then puts it back, telling the dashboard each time", async () => {
    const sent = stubApi();
    const onChanged = vi.fn();
    render(<RequestsView onChanged={onChanged} />);
    await userEvent.click(await screen.findByRole("button", { name: "Marquer traitée : Message de Léa Martin" }));
    expect(sent).toEqual([{ url: `/api/requests/${LEA.id}/treatment`, body: { kind: "contact", treated: true } }]);
    expect(await screen.findByRole("status")).toHaveTextContent("Message de Léa Martin : marquée traitée.");
    expect(screen.getByRole("heading", { level: 2, name: "Demandes" })).toHaveFocus();
    expect(cards()).toEqual(["Devis : Boulangerie Durand (Paul Durand)"]);
    expect(onChanged).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole("button", { name: "Traitées (2)" }));
    const lea = screen.getByRole("heading", { level: 3, name: "Message de Léa Martin" }).parentElement!;
    expect(within(lea).getByText(/^Traitée le 29\/11\/2026 12:00:00 par Alex Agenda$/)).toBeInTheDocument();
    await userEvent.click(within(lea).getByRole("button", { name: "Remettre à traiter : Message de Léa Martin" }));
    expect(sent[1]!.body).toEqual({ kind: "contact", treated: false });
    expect(await screen.findByRole("status")).toHaveTextContent("Message de Léa Martin : remise à traiter.");
    expect(screen.getByRole("button", { name: "À traiter (2)" })).toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(2);

    // A quote request says its kind.
    await userEvent.click(screen.getByRole("button", { name: "À traiter (2)" }));
    await userEvent.click(screen.getByRole("button", { name: /^Marquer traitée : Devis : Boulangerie Durand/ }));
    expect(sent[2]!.body).toEqual({ kind: "quote", treated: true });
  });

  it("says the server's refusal of a request deleted meanwhile, and drops it", async () => {
    stubApi({ gone: LEA.id });
    const onChanged = vi.fn();
    render(<RequestsView onChanged={onChanged} />);
    await userEvent.click(await screen.findByRole("button", { name: "Marquer traitée : Message de Léa Martin" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(TREATMENT_MESSAGES.notFound);
    expect(cards()).toEqual(["Devis : Boulangerie Durand (Paul Durand)"]);
    expect(onChanged).not.toHaveBeenCalled();
  });
});
