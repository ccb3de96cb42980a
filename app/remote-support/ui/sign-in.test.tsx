// @vitest-environment happy-dom
/**
 * The /soft-assist sign-in entry (spec §2 "Remote-support entry", issue 5)
 * against a stubbed better-auth: "Connexion..." while the request runs, the
 * French refusal on failure (the form usable again), the rate-limit message,
 * and the route told once the cookie is set. Sign-up stops a short password
 * before any request.
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SignInPanel } from "./sign-in";

function stubAuth(answer: () => Promise<Response>) {
  const calls: { url: string; body: unknown }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    calls.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return answer();
  });
  return calls;
}

async function fillSignIn(email: string, password: string) {
  await userEvent.type(screen.getByLabelText("Adresse e-mail"), email);
  await userEvent.type(screen.getByLabelText("Mot de passe"), password);
  await userEvent.click(screen.getByRole("button", { name: "Se connecter" }));
}

afterEach(() => vi.restoreAllMocks());

describe("SignInPanel", () => {
  it("shows Connexion... while signing in, then the French refusal, and lets the user retry", async () => {
    let answer!: (response: Response) => void;
    const calls = stubAuth(() => new Promise((resolve) => (answer = resolve)));
    const onSignedIn = vi.fn();
    render(<SignInPanel onSignedIn={onSignedIn} />);

    await fillSignIn(" lea@exemple.fr ", "mauvais-mot-de-passe");
    expect(screen.getByRole("button", { name: "Connexion..." })).toBeDisabled();
    expect(calls).toEqual([
      { url: "/api/auth/sign-in/email", body: { email: "lea@exemple.fr", password: "mauvais-mot-de-passe" } },
    ]);

    answer(Response.json({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" }, { status: 401 }));
    expect(await screen.findByText("E-mail ou mot de passe incorrect.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Se connecter" })).toBeEnabled();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("says to wait when sign-in is rate-limited", async () => {
    stubAuth(async () => Response.json({ message: "Too many requests" }, { status: 429 }));
    render(<SignInPanel onSignedIn={vi.fn()} />);
    await fillSignIn("lea@exemple.fr", "un-mot-de-passe");
    expect(await screen.findByText("Trop de tentatives. Réessayez dans une minute.")).toBeInTheDocument();
  });

  it("shows the server's own wait when it sends one (failed sign-ins, issue 13 §10)", async () => {
    stubAuth(async () =>
      Response.json(
        { code: "TROP_DE_TENTATIVES", message: "Trop de tentatives. Réessayez dans 15 minutes." },
        { status: 429, headers: { "Retry-After": "900" } },
      ),
    );
    render(<SignInPanel onSignedIn={vi.fn()} />);
    await fillSignIn("lea@exemple.fr", "un-mot-de-passe");
    expect(await screen.findByText("Trop de tentatives. Réessayez dans 15 minutes.")).toBeInTheDocument();
  });

  it("tells the route once signed in", async () => {
    stubAuth(async () => Response.json({ token: "t", user: { id: "u" } }));
    const onSignedIn = vi.fn();
    render(<SignInPanel onSignedIn={onSignedIn} />);
    await fillSignIn("lea@exemple.fr", "le-bon-mot-de-passe");
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(screen.queryByText("E-mail ou mot de passe incorrect.")).not.toBeInTheDocument();
  });

  it("refuses a password under 8 characters at sign-up without asking the server", async () => {
    const calls = stubAuth(async () => Response.json({}));
    render(<SignInPanel onSignedIn={vi.fn()} initialMode="sign-up" />);
    await userEvent.type(screen.getByLabelText("Nom"), "Léa Martin");
    await userEvent.type(screen.getByLabelText("Adresse e-mail"), "lea@exemple.fr");
    const password = screen.getByLabelText(/^Mot de passe/);
    await userEvent.type(password, "court");
    await userEvent.click(screen.getByRole("button", { name: "Créer mon compte" }));
    // The browser's own check (minlength) stops the form; the hint says the rule.
    expect(password).toBeInvalid();
    expect(password).toHaveAccessibleDescription("Au moins 8 caractères.");
    expect(calls).toEqual([]);
  });
});
