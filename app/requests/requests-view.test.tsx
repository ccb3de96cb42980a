/**
 * Issue 40, « « Demandes » shows an internal id and has no way to answer »: the mailbox plan as the customer
 * chose it, and a reply link to the sender with a subject saying what it answers.
 */
import { describe, expect, it } from "vitest";
import type { RequestView } from "./views";
import { mailboxText, replyHref } from "./requests-view";

const contact = {
  kind: "contact",
  id: 1,
  name: "Gérard Visiteur",
  email: "gerard+atelier@exemple.fr",
  message: "Mon écran reste noir.",
  createdAt: "2026-11-29T10:00:00.000Z",
  delivery: null,
} as unknown as RequestView;

describe("the « Demandes » view's words", () => {
  it("names a mailbox plan by its size and price, never by its id", () => {
    expect(mailboxText("mail-10")).toMatch(/^Boîte mail 10 Go – 4,99\s€ par mois$/u);
    expect(mailboxText("mail-10")).not.toContain("mail-10");
  });

  it("answers by e-mail to the sender, with a French subject", () => {
    const href = replyHref(contact, "Atelier Informatique");
    const url = new URL(href);
    expect(url.protocol).toBe("mailto:");
    expect(decodeURIComponent(url.pathname)).toBe("gerard+atelier@exemple.fr");
    expect(url.searchParams.get("subject")).toBe("Votre message à Atelier Informatique");
    expect(replyHref({ ...contact, kind: "quote" } as RequestView, "Atelier")).toContain(
      encodeURIComponent("Votre demande de devis à Atelier"),
    );
  });
});
