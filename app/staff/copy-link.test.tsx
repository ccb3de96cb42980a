// @vitest-environment happy-dom
/**
 * Issue 40: the invitation link the manager passes on by hand — « Copier le lien » puts it on the clipboard
 * and says « Lien copié »; where the browser refuses the clipboard, the read-only field is selected and the
 * manager is told to copy it with Ctrl+C.
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { COPY_FALLBACK_TEXT, CopyLink } from "./copy-link.tsx";

const LINK = "https://atelier.exemple/soft-assist/invitation?jeton=" + "a".repeat(43);

describe("CopyLink", () => {
  it("copies the link and announces « Lien copié »", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<CopyLink link={LINK} label="Lien d'invitation à transmettre" />);
    expect(screen.getByRole("textbox", { name: "Lien d'invitation à transmettre" })).toHaveValue(LINK);
    expect(screen.getByRole("textbox", { name: "Lien d'invitation à transmettre" })).toHaveAttribute("readonly");
    await user.click(screen.getByRole("button", { name: "Copier le lien" }));
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(screen.getByRole("status")).toHaveTextContent("Lien copié");
  });

  it("selects the link for Ctrl+C when the clipboard is refused", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => Promise.reject(new Error("NotAllowedError")));
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<CopyLink link={LINK} label="Lien d'invitation à transmettre" />);
    await user.click(screen.getByRole("button", { name: "Copier le lien" }));
    const field = screen.getByRole("textbox", { name: "Lien d'invitation à transmettre" }) as HTMLInputElement;
    expect(screen.getByRole("status")).toHaveTextContent(COPY_FALLBACK_TEXT);
    expect(field).toHaveFocus();
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, LINK.length]);
  });
});
