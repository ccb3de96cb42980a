/**
 * Issue 40, mail honesty in « Demandes »: a request's mail the outbox only wrote as a file (no SMTP, no
 * e-mail API) is never said « envoyé ».
 */
import { describe, expect, it } from "vitest";
import { deliveryText } from "./requests-view.tsx";

const written = { status: "sent", attempts: 1, lastError: null, sentAt: "2026-12-01T09:30:00.000Z" } as const;

describe("the delivery line", () => {
  it("says « E-mail envoyé » only when mail leaves the server", () => {
    expect(deliveryText(written, true)).toBe("E-mail envoyé le 01/12/2026 10:30:00");
    expect(deliveryText(written, false)).toBe(
      "E-mail non envoyé : l'envoi d'e-mails n'est pas configuré (écrit dans un fichier sur le serveur le 01/12/2026 10:30:00)",
    );
    expect(deliveryText(written, false)).not.toContain("E-mail envoyé");
  });
});
