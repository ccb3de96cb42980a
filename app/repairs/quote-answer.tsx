/**
 * Issue 30 §1: the answer to a pending quote on `/suivi`, in two steps so
 * that one click never commits. « Accepter le devis » (or « Refuser le
 * devis ») first asks « Accepter le devis de 149 € ? », with « Confirmer
 * l'acceptation » (« Confirmer le refus ») and « Annuler »; only the
 * confirmation posts the `decision`, with the amount the customer read
 * (`amountEuros`: the server refuses it if the quote changed meanwhile).
 *
 * With JavaScript the first step and « Annuler » only change this
 * component's state (focus goes to the question, then back to the button).
 * Without it they are plain POSTs to the page: `confirm=accepted|refused`
 * makes the action look the ticket up again and render the question
 * (`asking`), « Annuler » looks it up again without it. Both go to `#devis`,
 * so the browser scrolls back to the quote.
 */
import { useEffect, useRef, useState } from "react";
import { Form, useFormAction } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { formatEuros, type QuoteDecision } from "./statuses.ts";

/** The French of each answer: the first button, the question, what follows, the confirming button. */
const WORDING: Record<QuoteDecision, { open: string; question: string; effect: string; confirm: string }> = {
  accepted: {
    open: "Accepter le devis",
    question: "Accepter le devis de",
    effect: "Nous poursuivrons la réparation pour ce montant TTC.",
    confirm: "Confirmer l'acceptation",
  },
  refused: {
    open: "Refuser le devis",
    question: "Refuser le devis de",
    effect: "La réparation ne sera pas faite ; l'atelier vous recontactera pour la suite.",
    confirm: "Confirmer le refus",
  },
};

type Props = {
  /** The ticket's code ("R7K3-QXMA") and what the customer typed: the action checks them again. */
  code: string;
  contact: string;
  /** The quote's amount, whole euros TTC, shown in the question and sent with the confirmation. */
  amountEuros: number;
  /** The question the server rendered (`confirm` posted without JavaScript), or null. */
  asking: QuoteDecision | null;
  /** An answer is being sent (buttons disabled). */
  busy: boolean;
  /** The question the server was told « Annuler » to (`back`): its opening button takes the focus on load. */
  back?: QuoteDecision | null;
};

/** The form under the quote while it waits; see the module comment. */
export function QuoteAnswer({ code, contact, amountEuros, asking: askedByServer, busy, back = null }: Props) {
  const [asking, setAsking] = useState<QuoteDecision | null>(askedByServer);
  const question = useRef<HTMLParagraphElement>(null);
  const openers = useRef<Partial<Record<QuoteDecision, HTMLButtonElement | null>>>({});
  // Where focus goes after a change made here (never on the first render: the page's focus is the browser's).
  const focusNext = useRef<QuoteDecision | "question" | null>(null);
  const action = `${useFormAction()}#devis`;

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === "question") question.current?.focus();
    else if (target) openers.current[target]?.focus();
  }, [asking]);

  return (
    <Form method="post" className="flex flex-col gap-3" data-enhance="form">
      <input type="hidden" name="code" value={code} />
      <input type="hidden" name="contact" value={contact} />
      {asking === null ? (
        <div className="flex flex-wrap gap-3">
          {(["accepted", "refused"] as const).map((decision) => (
            <Button
              key={decision}
              ref={(button) => {
                openers.current[decision] = button;
              }}
              type="submit"
              name="confirm"
              value={decision}
              formAction={action}
              data-focus-on-load={back === decision ? "" : undefined}
              variant={decision === "accepted" ? "primary" : "secondary"}
              disabled={busy}
              onClick={(event) => {
                event.preventDefault();
                focusNext.current = "question";
                setAsking(decision);
              }}
            >
              {WORDING[decision].open}
            </Button>
          ))}
        </div>
      ) : (
        <div
          role="group"
          aria-labelledby="devis-question"
          className="flex flex-col gap-3 rounded-xl border border-amber-300/60 bg-amber-950/40 p-4"
        >
          <p
            id="devis-question"
            ref={question}
            tabIndex={-1}
            // Issue 30: the question rendered by the server (islands page, or no JavaScript) takes the focus.
            data-focus-on-load={askedByServer ? "" : undefined}
            className="text-lg font-semibold text-white"
          >
            {WORDING[asking].question} {formatEuros(amountEuros)}&nbsp;?
          </p>
          <p className="text-slate-100">{WORDING[asking].effect}</p>
          <input type="hidden" name="amountEuros" value={amountEuros} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" name="decision" value={asking} disabled={busy}>
              {WORDING[asking].confirm}
            </Button>
            <Button
              type="submit"
              variant="secondary"
              name="back"
              value={asking}
              formAction={action}
              disabled={busy}
              onClick={(event) => {
                event.preventDefault();
                focusNext.current = asking;
                setAsking(null);
              }}
            >
              Annuler
            </Button>
          </div>
        </div>
      )}
    </Form>
  );
}
