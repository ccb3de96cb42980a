// @vitest-environment happy-dom
/**
 * QuoteForm (issue 4, spec §3, §4, §5, §8) against a stubbed /dev-web action:
 * the plan named by `?offre=` is selected (also when a "Choisir" link is
 * followed from the page itself), the ".com" suffix describes the domain
 * field, a success replaces the form, a failure keeps it with its values and
 * its message goes away on the next submit, and a no-JS POST's values come
 * back.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, Link } from "react-router";
import { describe, expect, it } from "vitest";
import { describeMailboxPlan, MAILBOX_PLANS, mailboxPlanQuoteHref } from "#app/config/mailbox-plans.ts";
import {
  FORM_KEY_FIELD,
  HONEYPOT_FIELD,
  LIMITS,
  REQUEST_MESSAGES,
  type SubmissionResult,
} from "#app/requests/schemas.ts";
import { formActionData, type FormActionData } from "#app/requests/action-data.ts";
import { QuoteForm } from "./quote-form";

type Answer = (fields: Record<string, string>) => FormActionData | Promise<FormActionData>;

/** The page: the plan links (as on /dev-web) and the form; `answer` plays the action. */
function renderForm(
  answer: Answer,
  { url = "/dev-web", actionData }: { url?: string; actionData?: FormActionData } = {},
) {
  const posted: Record<string, string>[] = [];
  const Stub = createRoutesStub([
    {
      path: "/dev-web",
      Component: () => (
        <>
          {MAILBOX_PLANS.map((plan) => (
            <Link key={plan.id} to={mailboxPlanQuoteHref(plan)}>{`Choisir ${plan.capacityGb} Go`}</Link>
          ))}
          <QuoteForm actionData={actionData} />
        </>
      ),
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

const answerWith =
  (result: SubmissionResult): Answer =>
  (fields) =>
    formActionData("quote", result, fields);

const textbox = (name: string) => screen.getByRole("textbox", { name }) as HTMLInputElement;
const planSelect = () => screen.getByRole("combobox", { name: "Offre de boîte mail" }) as HTMLSelectElement;

async function fillAndSend(user: ReturnType<typeof userEvent.setup>) {
  await user.type(textbox("Nom de l'entreprise"), "Boulangerie Martin");
  await user.type(textbox("Nom du contact"), "Paul Martin");
  await user.type(textbox("Adresse e-mail"), "paul@example.fr");
  await user.type(textbox("Téléphone"), "01 23 45 67 89");
  await user.type(textbox("Description du projet"), "Un site vitrine avec nos horaires.");
  await user.type(textbox("Nom de domaine souhaité"), "boulangerie-martin");
  await user.selectOptions(planSelect(), "mail-10");
  await user.type(textbox("Budget envisagé"), "1 500 €");
  await user.click(screen.getByRole("button", { name: "Envoyer la demande de devis" }));
}

describe("QuoteForm", () => {
  it("has every field required, typed and bounded, the plans as options, and .com in the domain's description", () => {
    renderForm(answerWith({ status: "stored", id: "1" }));
    const names = [
      "Nom de l'entreprise",
      "Nom du contact",
      "Adresse e-mail",
      "Téléphone",
      "Description du projet",
      "Nom de domaine souhaité",
      "Budget envisagé",
    ];
    for (const name of names) expect(textbox(name)).toBeRequired();
    expect(planSelect()).toBeRequired();
    expect(textbox("Adresse e-mail")).toHaveAttribute("type", "email");
    expect(textbox("Téléphone")).toHaveAttribute("type", "tel");
    expect(textbox("Nom de domaine souhaité")).toHaveAttribute("maxlength", String(LIMITS.domain));
    expect(textbox("Nom de domaine souhaité")).toHaveAccessibleDescription(
      /^Extension ajoutée : \.com Sans extension, «\s\.com\s» est ajouté/u,
    );
    expect([...planSelect().options].map((option) => option.text)).toEqual([
      "Choisissez une offre",
      ...MAILBOX_PLANS.map(describeMailboxPlan),
    ]);
    expect(planSelect()).toHaveValue("");
    const form = planSelect().closest("form")!;
    expect(form).toHaveAttribute("action", "/dev-web#devis");
    expect(form.querySelector(`[name="${HONEYPOT_FIELD}"]`)).toHaveAttribute("tabindex", "-1");
  });

  it("selects the plan named by ?offre= after hydration", async () => {
    renderForm(answerWith({ status: "stored", id: "1" }), { url: "/dev-web?offre=mail-50" });
    await waitFor(() => expect(planSelect()).toHaveValue("mail-50"));
    expect(planSelect()).not.toHaveFocus();
  });

  it("ignores an unknown ?offre=", () => {
    renderForm(answerWith({ status: "stored", id: "1" }), { url: "/dev-web?offre=mail-1000" });
    expect(planSelect()).toHaveValue("");
  });

  it("selects the plan of a Choisir link followed from the page, even the same link again", async () => {
    const { user } = renderForm(answerWith({ status: "stored", id: "1" }));
    await user.click(screen.getByRole("link", { name: "Choisir 10 Go" }));
    await waitFor(() => expect(planSelect()).toHaveValue("mail-10"));
    // Focus follows the choice to the form (not on a page load: see the test above).
    expect(planSelect()).toHaveFocus();
    await user.click(screen.getByRole("link", { name: "Choisir 50 Go" }));
    await waitFor(() => expect(planSelect()).toHaveValue("mail-50"));
    await user.selectOptions(planSelect(), "mail-5");
    await user.click(screen.getByRole("link", { name: "Choisir 50 Go" }));
    await waitFor(() => expect(planSelect()).toHaveValue("mail-50"));
  });

  it("sends every field, then replaces the form with the thank-you message and focuses it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user, posted } = renderForm(async (fields) => {
      await gate;
      return answerWith({ status: "stored", id: "7" })(fields);
    });
    await fillAndSend(user);
    expect(await screen.findByRole("button", { name: "Envoi en cours..." })).toBeDisabled();
    release();

    const status = await screen.findByRole("status");
    await waitFor(() => expect(status).toHaveTextContent(REQUEST_MESSAGES.quoteSuccess));
    expect(status).toHaveTextContent(REQUEST_MESSAGES.quoteSuccessDetail);
    expect(status).toHaveFocus();
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByRole("button")).toBeNull();
    expect(posted).toEqual([
      {
        companyName: "Boulangerie Martin",
        contactName: "Paul Martin",
        email: "paul@example.fr",
        phone: "01 23 45 67 89",
        description: "Un site vitrine avec nos horaires.",
        domain: "boulangerie-martin",
        emailOption: "mail-10",
        [HONEYPOT_FIELD]: "",
        budget: "1 500 €",
        [FORM_KEY_FIELD]: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
  });

  it("keeps the form and its values on failure, and hides the message on the next submit", async () => {
    let answers = 0;
    let release!: () => void;
    const { user } = renderForm(async (fields) => {
      answers += 1;
      if (answers === 2) await new Promise<void>((resolve) => (release = resolve));
      return answerWith({ status: "failed" })(fields);
    });
    await fillAndSend(user);
    const alert = screen.getByRole("alert");
    await waitFor(() => expect(alert).toHaveTextContent(REQUEST_MESSAGES.quoteFailure));
    expect(textbox("Nom de l'entreprise")).toHaveValue("Boulangerie Martin");
    expect(planSelect()).toHaveValue("mail-10");

    // Typing does not clear it (spec §4: only the next submit does).
    await user.type(textbox("Budget envisagé"), " HT");
    expect(alert).toHaveTextContent(REQUEST_MESSAGES.quoteFailure);

    await user.click(screen.getByRole("button", { name: "Envoyer la demande de devis" }));
    await screen.findByRole("button", { name: "Envoi en cours..." });
    expect(alert).toBeEmptyDOMElement();
    release();
    await waitFor(() => expect(within(alert).getByText(REQUEST_MESSAGES.quoteFailure)).toBeInTheDocument());
  });

  it("puts server-side errors under their fields and focuses the first one", async () => {
    const { user } = renderForm(
      answerWith({ status: "invalid", fieldErrors: { phone: "Numéro invalide.", domain: "Domaine invalide." } }),
    );
    await fillAndSend(user);
    await waitFor(() => expect(textbox("Téléphone")).toHaveAttribute("aria-invalid", "true"));
    expect(textbox("Téléphone")).toHaveAccessibleDescription("Numéro invalide.");
    expect(textbox("Nom de domaine souhaité")).toHaveAccessibleDescription(/\.com.*Domaine invalide\.$/);
    expect(textbox("Téléphone")).toHaveFocus();
    expect(screen.getByRole("alert")).toHaveTextContent(REQUEST_MESSAGES.invalid);
  });

  it("fills the values of a POST made without JavaScript in again, the plan included", () => {
    const values = { companyName: "ACME", domain: "acme", emailOption: "mail-5", budget: "2000" };
    renderForm(answerWith({ status: "failed" }), {
      actionData: formActionData("quote", { status: "spam" }, { ...values, [HONEYPOT_FIELD]: "http://spam" }),
    });
    expect(screen.getByRole("alert")).toHaveTextContent(REQUEST_MESSAGES.spam);
    expect(textbox("Nom de l'entreprise")).toHaveValue("ACME");
    expect(textbox("Nom de domaine souhaité")).toHaveValue("acme");
    expect(planSelect()).toHaveValue("mail-5");
    expect(textbox("Budget envisagé")).toHaveValue("2000");
  });
});
