// @vitest-environment happy-dom
/**
 * Issue 40 in « Équipe »: when mail does not leave the server, « Inviter un technicien » says plainly that
 * nothing was sent (an alert, never « Invitation envoyée ») and gives the link to copy; the backups are no
 * longer in this view (their own tab).
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { STAFF_MESSAGES } from "./protocol.ts";
import StaffView from "./staff-view.tsx";

const LINK = `http://127.0.0.1:3000/soft-assist/invitation?jeton=${"b".repeat(43)}`;
const INVITATION = {
  id: "5f0c6c1e-8f0a-4d55-9d6b-1f1b0b7c9a11",
  email: "ines@exemple.fr",
  createdAt: "2026-12-01T09:00:00.000Z",
  expiresAt: "2026-12-08T09:00:00.000Z",
  expired: false,
};

describe("« Inviter un technicien » without mail", () => {
  it("says the invitation was not sent and offers its link to copy", async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (String(input) === "/api/staff/invitations" && init?.method === "POST")
        return Response.json(
          { invitation: INVITATION, mailSent: false, link: LINK, message: STAFF_MESSAGES.invitedNoMail },
          { status: 201 },
        );
      return Response.json({ members: [], invitations: [] });
    });
    render(<StaffView selfId="gerant" />);
    await user.type(screen.getByLabelText(/^Adresse e-mail du technicien/), "ines@exemple.fr");
    await user.click(screen.getByRole("button", { name: "Inviter un technicien" }));
    const said = await screen.findByText(
      /^L'envoi d'e-mails n'est pas configuré : l'invitation n'a pas été envoyée\. Copiez le lien/,
    );
    expect(said.closest("[role]")).toHaveAttribute("role", "alert");
    expect(screen.queryByText(/Invitation envoyée/)).toBeNull();
    expect(screen.getByRole("textbox", { name: "Lien d'invitation à transmettre" })).toHaveValue(LINK);
    expect(screen.getByRole("button", { name: "Copier le lien" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Sauvegardes" })).toBeNull();
  });
});
