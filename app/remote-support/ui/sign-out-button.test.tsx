// @vitest-environment happy-dom
/**
 * "Se déconnecter" (spec §2, §8): "Déconnexion..." while busy; a failure is
 * only logged and the busy flag resets; a success tells the other tabs and
 * calls `onSignedOut`.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SignOutButton } from "./sign-out-button";

describe("SignOutButton", () => {
  it("resets the busy flag when signing out fails", async () => {
    let answer!: (response: Response) => void;
    vi.spyOn(globalThis, "fetch").mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const onSignedOut = vi.fn();
    render(<SignOutButton onSignedOut={onSignedOut} />);
    await userEvent.click(screen.getByRole("button", { name: "Se déconnecter" }));
    expect(screen.getByRole("button", { name: "Déconnexion..." })).toBeDisabled();
    answer(Response.json({ message: "boom" }, { status: 500 }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Se déconnecter" })).toBeEnabled());
    expect(onSignedOut).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalled();
  });

  it("calls onSignedOut and tells the other tabs after a sign-out", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ success: true }));
    const received: unknown[] = [];
    const channel = new BroadcastChannel("atelier-soft-assist-auth");
    channel.onmessage = (event) => received.push(event.data);
    const onSignedOut = vi.fn();
    render(<SignOutButton onSignedOut={onSignedOut} />);
    await userEvent.click(screen.getByRole("button", { name: "Se déconnecter" }));
    await waitFor(() => expect(onSignedOut).toHaveBeenCalledOnce());
    expect(fetch).toHaveBeenCalledWith("/api/auth/sign-out", expect.objectContaining({ method: "POST" }));
    await waitFor(() => expect(received).toEqual(["signed-out"]));
    channel.close();
  });
});
