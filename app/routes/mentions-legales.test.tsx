// @vitest-environment happy-dom
/**
 * The legal notices' retention list (issue 13 §11): each period is the one
 * the server's purges use by default (`app/config/retention.ts`).
 */
import { render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { formatRetentionDays, RETENTION } from "#app/config/retention.ts";
import MentionsLegales from "./mentions-legales";

describe("mentions légales: retention", () => {
  it("states how long each kind of data is kept, from the retention constants", async () => {
    const Stub = createRoutesStub([{ path: "/mentions-legales", Component: MentionsLegales }]);
    render(<Stub initialEntries={["/mentions-legales"]} />);

    expect(await screen.findByRole("heading", { name: "Durées de conservation" })).toBeInTheDocument();
    const period = (term: string) => screen.getByText(term).nextElementSibling?.textContent ?? "";
    expect(period("Demandes de contact et de devis")).toContain(
      `${formatRetentionDays(RETENTION.requestDays)} après notre dernier contact`,
    );
    expect(period("Demandes de contact et de devis")).toContain(`${RETENTION.requestYears} ans`);
    expect(period("Copies des e-mails de vos demandes")).toContain("30 jours après leur envoi");
    expect(period("Sessions d'assistance à distance")).toContain("1 an après la fin de la session");
    expect(period("Données de connexion d'une session (dont les adresses IP)")).toContain(
      `${RETENTION.signalingHours} heures`,
    );
    expect(period("Conversation avec l'assistant virtuel")).toContain("1 an après votre dernier message");
    // Issue 17 §4: a rating keeps a copy of the exchange, even after "Nouvelle conversation".
    expect(period("Avis sur les réponses de l'assistant virtuel")).toContain("1 an après l'avis");
    expect(period("Avis sur les réponses de l'assistant virtuel")).toContain("même après « Nouvelle conversation »");
  });
});
