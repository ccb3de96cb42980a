// @vitest-environment happy-dom
/**
 * ContactForm (issue 4, spec §4, §5, §8) against a stubbed /contact action:
 * labelled required fields with their limits, the sending state, success
 * (message, fields emptied), failure and field errors, the return to idle on
 * typing, and the values echoed after a POST made without JavaScript.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import {
  FORM_KEY_FIELD,
  HONEYPOT_FIELD,
  LIMITS,
  REQUEST_MESSAGES,
  type SubmissionResult,
} from "#app/requests/schemas.ts";
import { ContactForm } from "./contact-form";
import { formActionData, type FormActionData } from "#app/requests/action-data.ts";

type Answer = (fields: Record<string, string>) => FormActionData | Promise<FormActionData>;

/** Renders the form at /contact; `answer` plays the action (it receives the posted fields). */
function renderForm(answer: Answer, actionData?: FormActionData) {
  const posted: Record<string, string>[] = [];
  const Stub = createRoutesStub([
    {
      path: "/contact",
      Component: () => <ContactForm actionData={actionData} />,
      action: async ({ request }) => {
        const fields = Object.fromEntries((await request.formData()) as Iterable<[string, string]>);
        posted.push(fields);
        return answer(fields);
      },
    },
  ]);
  render(<Stub initialEntries={["/contact"]} />);
  return { user: userEvent.setup(), posted };
}

const answerWith =
  (result: SubmissionResult): Answer =>
  (fields) =>
    formActionData("contact", result, fields);

const fields = () => ({
  // By role: the accessible name leaves out the (aria-hidden) asterisk of required fields.
  name: screen.getByRole("textbox", { name: "Nom" }) as HTMLInputElement,
  email: screen.getByRole("textbox", { name: "Adresse e-mail" }) as HTMLInputElement,
  message: screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement,
});

async function fillAndSend(user: ReturnType<typeof userEvent.setup>) {
  const { name, email, message } = fields();
  await user.type(name, "Marie Curie");
  await user.type(email, "marie@example.fr");
  await user.type(message, "Mon PC ne démarre plus.");
  await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
}

describe("ContactForm", () => {
  it("has labelled, required fields with their limits and autocomplete, and a hidden honeypot", () => {
    renderForm(answerWith({ status: "stored", id: "1" }));
    const { name, email, message } = fields();
    for (const field of [name, email, message]) expect(field).toBeRequired();
    expect(name).toHaveAttribute("autocomplete", "name");
    expect(name).toHaveAttribute("maxlength", String(LIMITS.name));
    expect(email).toHaveAttribute("type", "email");
    expect(email).toHaveAttribute("autocomplete", "email");
    expect(email).toHaveAttribute("maxlength", String(LIMITS.email));
    expect(message).toHaveAttribute("rows", "6");
    expect(message).toHaveAttribute("maxlength", String(LIMITS.message));
    const form = name.closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/contact#message");

    const honeypot = form.querySelector<HTMLInputElement>(`[name="${HONEYPOT_FIELD}"]`)!;
    expect(honeypot).toHaveAttribute("tabindex", "-1");
    expect(honeypot).toHaveAttribute("autocomplete", "off");
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    // Hidden from assistive technologies: not found by its label through the accessibility tree.
    expect(screen.queryByRole("textbox", { name: "Ne remplissez pas ce champ" })).toBeNull();
    // The GDPR notice: controller, retention, rights, CNIL.
    expect(screen.getByText(/conservées 3 ans après notre dernier/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "mentions légales" })).toHaveAttribute(
      "href",
      expect.stringMatching(/^\/mentions-legales/),
    );
    expect(screen.getByRole("link", { name: "CNIL" })).toBeInTheDocument();
  });

  it("disables the button while sending, then says it was sent and empties the fields", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user, posted } = renderForm(async (values) => {
      await gate;
      return answerWith({ status: "stored", id: "42" })(values);
    });
    await fillAndSend(user);

    const button = await screen.findByRole("button", { name: "Envoi en cours..." });
    expect(button).toBeDisabled();
    release();

    // The live region is always there: wait for its text.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(REQUEST_MESSAGES.contactSuccess));
    expect(screen.getByRole("button", { name: "Envoyer le message" })).toBeEnabled();
    await waitFor(() => expect(fields().name).toHaveValue(""));
    expect(fields().email).toHaveValue("");
    expect(fields().message).toHaveValue("");
    expect(posted).toEqual([
      {
        name: "Marie Curie",
        email: "marie@example.fr",
        message: "Mon PC ne démarre plus.",
        [HONEYPOT_FIELD]: "",
        // Issue 28: the one-time key a retry is recognised by, drawn once the form is interactive.
        [FORM_KEY_FIELD]: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
  });

  it("shows the failure message, keeps the values, and returns to idle when the visitor types", async () => {
    const { user } = renderForm(answerWith({ status: "failed" }));
    await fillAndSend(user);

    const alert = screen.getByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(REQUEST_MESSAGES.contactFailure));
    expect(within(alert).getByRole("link", { name: /01 99 00 12 34/ })).toHaveAttribute("href", "tel:+33199001234");
    expect(fields().name).toHaveValue("Marie Curie");
    expect(screen.getByRole("status")).toBeEmptyDOMElement();

    await user.type(fields().message, " Merci");
    expect(alert).toBeEmptyDOMElement();
  });

  it("puts each server-side error under its field, focuses the first one, and clears them on typing", async () => {
    const { user } = renderForm(
      answerWith({
        status: "invalid",
        fieldErrors: { email: "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr." },
      }),
    );
    await fillAndSend(user);

    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(REQUEST_MESSAGES.invalid));
    const { name, email } = fields();
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription(
      "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr.",
    );
    expect(name).not.toHaveAttribute("aria-invalid");
    expect(email).toHaveFocus();

    await user.type(email, "x");
    expect(email).not.toHaveAttribute("aria-invalid");
    expect(screen.queryByText(/adresse e-mail valide/)).toBeNull();
    expect(screen.getByRole("alert")).toBeEmptyDOMElement();
  });

  it("shows the result of a POST made without JavaScript and fills the typed values in again", () => {
    const values = { name: "Marie", email: "marie@", message: "Bonjour" };
    renderForm(
      answerWith({ status: "failed" }),
      formActionData("contact", { status: "rate-limited", retryAfterSeconds: 90 }, values),
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Réessayez dans 2 minutes");
    expect(fields().name).toHaveValue("Marie");
    expect(fields().email).toHaveValue("marie@");
    expect(fields().message).toHaveValue("Bonjour");
  });

  it("after a stored POST made without JavaScript, shows the success and empty fields", () => {
    renderForm(
      answerWith({ status: "failed" }),
      formActionData("contact", { status: "stored", id: "1" }, { name: "Marie" }),
    );
    expect(screen.getByRole("status")).toHaveTextContent(REQUEST_MESSAGES.contactSuccess);
    expect(fields().name).toHaveValue("");
  });

  it("empties fields re-filled by a no-JS POST once a later submission is stored", async () => {
    const { user } = renderForm(
      answerWith({ status: "stored", id: "2" }),
      formActionData("contact", { status: "failed" }, { name: "Marie", email: "marie@example.fr", message: "Bonjour" }),
    );
    await user.click(screen.getByRole("button", { name: "Envoyer le message" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(REQUEST_MESSAGES.contactSuccess));
    await waitFor(() => expect(fields().name).toHaveValue(""));
    expect(screen.getByRole("alert")).toBeEmptyDOMElement();
  });
});
