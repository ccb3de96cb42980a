// @vitest-environment happy-dom
/**
 * The /soft-assist sign-in entry (spec §2 "Remote-support entry", issues 5
 * and 16) against a stubbed route action: each form posts its `intent` and
 * fields, "Connexion..." while the post runs, the action's French refusal
 * shown with the address typed kept, the switch between forms by URL
 * (`?formulaire=`, focus on the new heading), and the browser's own check of
 * a short password at sign-up.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, useActionData, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { modeOf, RESET_REQUESTED_MESSAGE, SignInPanel, type SignInResult } from "./sign-in";

type Answer = (fields: Record<string, string>) => SignInResult | Promise<SignInResult>;

function Page() {
  const location = useLocation();
  const result = useActionData<SignInResult>();
  return (
    <>
      <p data-testid="url">{location.pathname + location.search}</p>
      <SignInPanel mode={modeOf(new URLSearchParams(location.search))} result={result} />
    </>
  );
}

/** Renders the panel at `url`; `answer` plays the route's action (it receives the posted fields). */
function renderPanel(answer: Answer, url = "/soft-assist") {
  const posted: Record<string, string>[] = [];
  const Stub = createRoutesStub([
    {
      path: "/soft-assist",
      Component: Page,
      action: async ({ request }) => {
        const fields = Object.fromEntries((await request.formData()) as Iterable<[string, string]>);
        posted.push(fields);
        return answer(fields);
      },
    },
  ]);
  render(<Stub initialEntries={[url]} />);
  return { user: userEvent.setup(), posted };
}

const refusal =
  (message: string): Answer =>
  (fields) => ({
    intent: fields.intent as SignInResult["intent"],
    tone: "error",
    message,
    values: { email: fields.email },
  });

describe("SignInPanel", () => {
  it("posts the sign-in, shows Connexion... meanwhile, then the French refusal, and lets the user retry", async () => {
    let release!: () => void;
    const { user, posted } = renderPanel(async (fields) => {
      await new Promise<void>((resolve) => (release = resolve));
      return refusal("E-mail ou mot de passe incorrect.")(fields);
    });
    await user.type(screen.getByLabelText("Adresse e-mail"), "lea@exemple.fr");
    await user.type(screen.getByLabelText("Mot de passe"), "mauvais-mot-de-passe");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));
    expect(await screen.findByRole("button", { name: "Connexion..." })).toBeDisabled();
    expect(posted).toEqual([{ intent: "sign-in", email: "lea@exemple.fr", password: "mauvais-mot-de-passe" }]);

    release();
    expect(await screen.findByText("E-mail ou mot de passe incorrect.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Se connecter" })).toBeEnabled();
    expect(screen.getByLabelText("Adresse e-mail")).toHaveValue("lea@exemple.fr");
  });

  it("shows the server's own wait when sign-in is limited", async () => {
    const { user } = renderPanel(refusal("Trop de tentatives. Réessayez dans 15 minutes."));
    await user.type(screen.getByLabelText("Adresse e-mail"), "lea@exemple.fr");
    await user.type(screen.getByLabelText("Mot de passe"), "un-mot-de-passe");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));
    // The live region is there, empty, before the answer fills it.
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent("Trop de tentatives. Réessayez dans 15 minutes."),
    );
  });

  it("switches to account creation through the URL and moves the focus to its heading", async () => {
    const { user, posted } = renderPanel(refusal("Un compte existe déjà avec cette adresse e-mail."));
    await user.click(screen.getByRole("button", { name: "Pas encore de compte ? Créer un compte" }));
    expect(await screen.findByRole("heading", { name: "Créer un compte" })).toHaveFocus();
    expect(screen.getByTestId("url")).toHaveTextContent("/soft-assist?formulaire=inscription");

    await user.type(screen.getByLabelText("Nom"), "Léa Martin");
    await user.type(screen.getByLabelText("Adresse e-mail"), "lea@exemple.fr");
    await user.type(screen.getByLabelText(/^Mot de passe/), "un-long-mot-de-passe");
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    expect(await screen.findByText("Un compte existe déjà avec cette adresse e-mail.")).toBeInTheDocument();
    // Still the sign-up form after the post: its address is the sign-up one.
    expect(screen.getByRole("heading", { name: "Créer un compte" })).toBeInTheDocument();
    expect(posted).toEqual([
      { intent: "sign-up", name: "Léa Martin", email: "lea@exemple.fr", password: "un-long-mot-de-passe" },
    ]);
  });

  it("opens on the form the URL names, and answers a reset request with the neutral sentence", async () => {
    const { user, posted } = renderPanel(
      (fields) => ({ intent: "forgot", tone: "success", message: RESET_REQUESTED_MESSAGE, values: fields }),
      "/soft-assist?formulaire=mot-de-passe-oublie",
    );
    expect(screen.getByRole("heading", { name: "Mot de passe oublié" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("Adresse e-mail"), "lea@exemple.fr");
    await user.click(screen.getByRole("button", { name: "Envoyer le lien" }));
    // The live region is there, empty, before the answer fills it.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(RESET_REQUESTED_MESSAGE));
    expect(posted).toEqual([{ intent: "forgot", email: "lea@exemple.fr" }]);
  });

  it("lets the browser refuse a password under 8 characters at sign-up, before any post", async () => {
    const { user, posted } = renderPanel(refusal("inattendu"), "/soft-assist?formulaire=inscription");
    await user.type(screen.getByLabelText("Nom"), "Léa Martin");
    await user.type(screen.getByLabelText("Adresse e-mail"), "lea@exemple.fr");
    const password = screen.getByLabelText(/^Mot de passe/);
    await user.type(password, "court");
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    expect(password).toBeInvalid();
    expect(password).toHaveAccessibleDescription("Au moins 8 caractères.");
    expect(posted).toEqual([]);
  });
});

describe("modeOf", () => {
  it("reads ?formulaire=, and falls back to sign-in for anything else", () => {
    expect(modeOf(new URLSearchParams("formulaire=inscription"))).toBe("sign-up");
    expect(modeOf(new URLSearchParams("formulaire=mot-de-passe-oublie"))).toBe("forgot");
    for (const search of ["", "formulaire=", "formulaire=autre", "mode=sign-up"]) {
      expect(modeOf(new URLSearchParams(search))).toBe("sign-in");
    }
  });
});
