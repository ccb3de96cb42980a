// @vitest-environment happy-dom
/**
 * Issue 17 §4 in the browser, against a stubbed API: the customer's
 * "Utile" / "Pas utile" under an answer (toggle state, optional comment,
 * thanks, French refusals), and the technicians' "Avis sur l'assistant"
 * (counts, rated exchange with the rated answer marked, filter switch,
 * "Voir plus", empty state).
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { AnswerRating } from "./answer-rating";
import type { AnswerRating as StoredRating, RatingsListResponse, StaffRating } from "./ratings-protocol";
import { RatingsView } from "./ratings-view";

type Call = { url: string; method: string; body: unknown };

function stubFetch(answer: (call: Call) => Response): Call[] {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const call = {
      url: String(input),
      method: init?.method ?? "GET",
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    return answer(call);
  });
  return calls;
}

/** The controls as the panel holds them: the stored rating lives in the parent. */
function Harness({ initial }: { initial?: StoredRating }) {
  const [rating, setRating] = useState(initial);
  return (
    <>
      <p id="avis">Votre avis et cet échange sont transmis à l'atelier pour améliorer l'assistant.</p>
      <AnswerRating messageId="m1" rating={rating} onRated={setRating} noticeId="avis" />
    </>
  );
}

const stored = (body: { rating: string; comment?: string }, comment: string | null = null) =>
  Response.json({
    rating: {
      messageId: "m1",
      value: body.rating,
      comment: body.comment ?? comment,
      updatedAt: "2026-11-24T10:00:00Z",
    },
  });

describe("rating an answer", () => {
  it("stores « Pas utile » at once, then the optional comment, then thanks", async () => {
    const calls = stubFetch((call) => stored(call.body as { rating: string; comment?: string }));
    render(<Harness />);
    const group = screen.getByRole("group", { name: "Votre avis sur cette réponse" });
    expect(group).toHaveAccessibleDescription(/transmis à l'atelier/);
    const notUseful = within(group).getByRole("button", { name: "Pas utile" });
    expect(notUseful).toHaveAttribute("aria-pressed", "false");

    await userEvent.click(notUseful);
    await waitFor(() => expect(notUseful).toHaveAttribute("aria-pressed", "true"));
    expect(within(group).getByRole("button", { name: "Utile" })).toHaveAttribute("aria-pressed", "false");
    expect(calls[0]).toEqual({
      url: "/api/assistant/messages/m1/rating",
      method: "PUT",
      body: { rating: "not-useful" },
    });

    await userEvent.type(screen.getByLabelText("Un commentaire ? (facultatif)"), "  Le prix est faux.  ");
    await userEvent.click(screen.getByRole("button", { name: "Envoyer le commentaire" }));
    const thanks = await screen.findByText("Merci pour votre avis.");
    await waitFor(() => expect(thanks).toHaveFocus());
    expect(calls[1]!.body).toEqual({ rating: "not-useful", comment: "Le prix est faux." });
    expect(screen.getByText("Votre commentaire : « Le prix est faux. »")).toBeInTheDocument();
    expect(screen.queryByLabelText("Un commentaire ? (facultatif)")).not.toBeInTheDocument();
  });

  it("shows a stored rating after a reload, and the API's French refusal", async () => {
    stubFetch(() =>
      Response.json(
        { message: "Vous avez envoyé beaucoup d'avis. Patientez quelques minutes avant de recommencer." },
        { status: 429 },
      ),
    );
    render(<Harness initial={{ value: "useful", comment: "Clair." }} />);
    expect(screen.getByRole("button", { name: "Utile" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByText("Merci pour votre avis.")).toBeInTheDocument();
    expect(screen.getByText("Votre commentaire : « Clair. »")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Pas utile" }));
    // The live region is there, empty, before the answer fills it.
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Vous avez envoyé beaucoup d'avis."));
    expect(screen.getByRole("button", { name: "Utile" })).toHaveAttribute("aria-pressed", "true");
  });
});

const rated = (id: string, comment: string | null, value: StaffRating["value"] = "not-useful"): StaffRating => ({
  id,
  value,
  comment,
  answer: `Réponse ${id}`,
  conversation: [
    { role: "user", content: `Question ${id}`, createdAt: "2026-11-24T09:59:00Z" },
    { role: "assistant", content: `Réponse ${id}`, createdAt: "2026-11-24T10:00:00Z" },
  ],
  createdAt: "2026-11-24T10:00:00Z",
  updatedAt: "2026-11-24T10:01:00Z",
});

describe("Avis sur l'assistant", () => {
  it("lists « Pas utile » exchanges with counts, pages with « Voir plus », and switches to all", async () => {
    const counts = { useful: 3, notUseful: 2, days: 30 };
    const calls = stubFetch((call) => {
      const query = new URL(call.url, "http://atelier.test").searchParams;
      const body: RatingsListResponse =
        query.get("avis") === "tous"
          ? { ratings: [], counts, nextBefore: null }
          : query.get("avant")
            ? { ratings: [rated("b", null)], counts, nextBefore: null }
            : { ratings: [rated("a", "Le prix est faux.")], counts, nextBefore: "2026-11-24T10:01:00.000Z" };
      return Response.json(body);
    });
    render(<RatingsView />);
    expect(screen.getByRole("heading", { level: 2, name: "Avis sur l'assistant" })).toBeInTheDocument();
    expect(await screen.findByText("Sur les 30 derniers jours : 2 « Pas utile » et 3 « Utile ».")).toBeInTheDocument();
    const first = screen.getAllByRole("listitem")[0]!;
    expect(first).toHaveTextContent("Commentaire : « Le prix est faux. »");
    const excerpt = within(first).getByRole("list", { name: "Extrait de la conversation" });
    expect(
      within(excerpt)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["ClientQuestion a", "Assistant · réponse notéeRéponse a"]);
    expect(calls[0]!.url).toBe("/api/assistant/ratings?avis=pas-utile");

    await userEvent.click(screen.getByRole("button", { name: "Voir plus" }));
    expect(await screen.findByText("Sans commentaire.")).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 3 })[1]).toHaveFocus();
    expect(calls[1]!.url).toBe("/api/assistant/ratings?avis=pas-utile&avant=2026-11-24T10%3A01%3A00.000Z");
    expect(screen.queryByRole("button", { name: "Voir plus" })).not.toBeInTheDocument();

    const all = screen.getByRole("button", { name: "Tout afficher" });
    await userEvent.click(all);
    expect(all).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByText("Aucun avis pour l'instant.")).toBeInTheDocument();
  });

  it("shows the API's French refusal", async () => {
    stubFetch(() => Response.json({ message: "Réservé aux techniciens." }, { status: 403 }));
    render(<RatingsView />);
    // The live region is there, empty, before the answer fills it.
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Réservé aux techniciens."));
  });
});
