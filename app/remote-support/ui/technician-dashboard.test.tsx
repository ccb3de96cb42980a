// @vitest-environment happy-dom
/**
 * The dashboard's join form (spec §2, §5 "Connection code", §8) against a
 * stubbed API: the code is upper-cased as typed, the button is disabled while
 * empty and shows "Connexion..." while busy, and the API's refusal is shown
 * in red as is.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import TechnicianDashboard from "./technician-dashboard";

const user = { id: "t", name: "Camille", email: "camille@exemple.fr", isTechnician: true };

function stubApi(join: () => Promise<Response>) {
  const calls: { url: string; body: unknown }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url === "/api/sessions/active") return Response.json({ session: null });
    if (url === "/api/sessions/history") return Response.json({ sessions: [] });
    if (url === "/api/sessions/join") return join();
    return Response.json({ message: "?" }, { status: 404 });
  });
  return calls;
}

describe("TechnicianDashboard join form", () => {
  it("upper-cases the code, disables the empty form and shows the refusal in red", async () => {
    let answer!: (response: Response) => void;
    const calls = stubApi(() => new Promise((resolve) => (answer = resolve)));
    render(<TechnicianDashboard user={user} socket={null} />);
    const input = screen.getByLabelText("Code de session");
    const button = screen.getByRole("button", { name: "Se connecter" });
    expect(input).toHaveAttribute("placeholder", "Entrez le code");
    expect(button).toBeDisabled();

    await userEvent.type(input, "acd34f");
    expect(input).toHaveValue("ACD34F");
    expect(button).toBeEnabled();

    await userEvent.click(button);
    expect(screen.getByRole("button", { name: "Connexion..." })).toBeDisabled();
    answer(Response.json({ message: "Session non trouvée" }, { status: 404 }));
    const alert = await screen.findByText("Session non trouvée");
    expect(alert).toHaveClass("text-red-300");
    expect(calls.find((call) => call.url === "/api/sessions/join")?.body).toEqual({ code: "ACD34F" });
    await waitFor(() => expect(screen.getByText("Aucune session pour l'instant.")).toBeInTheDocument());
  });
});
