/**
 * The signed-out face of /soft-assist (spec §2 "Remote-support entry": the
 * sign-in entry, also where sign-out lands): sign-in by e-mail and password,
 * account creation for customers, and "Mot de passe oublié ?" which asks the
 * server to mail a reset link. Technicians are never created here (issue 5:
 * only `npm run user` gives that role).
 *
 * Issue 16 §1: rendered by the server and usable before any JavaScript runs.
 * Each form posts to the route's action (`intent`: sign-in, sign-up, forgot);
 * React Router's `<Form>` sends the same post without a page load once the
 * page is hydrated. Which form is shown is in the URL (`?formulaire=`),
 * switched by GET forms, so the switch works without JavaScript too.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import type { AccountForm } from "#app/remote-support/account.ts";
import { ACCOUNT_LIMITS } from "#app/remote-support/account-limits.ts";

export type SignInMode = AccountForm["intent"];

/** `?formulaire=` values (French, they are in the address bar) → the form shown; absent or unknown: sign-in. */
export const MODE_PARAM = "formulaire";
const MODE_VALUES: Record<Exclude<SignInMode, "sign-in">, string> = {
  "sign-up": "inscription",
  forgot: "mot-de-passe-oublie",
};

/** The form named by a URL's `?formulaire=`. */
export function modeOf(search: URLSearchParams): SignInMode {
  const value = search.get(MODE_PARAM);
  if (value === MODE_VALUES["sign-up"]) return "sign-up";
  if (value === MODE_VALUES.forgot) return "forgot";
  return "sign-in";
}

/** What the route's action answered: a French message, and the typed address and name to show again. */
export type SignInResult = {
  intent: SignInMode;
  tone: "success" | "error";
  message: string;
  values: { email?: string; name?: string };
};

type Props = {
  mode: SignInMode;
  /** The action's answer, when the last post was one of these forms. */
  result?: SignInResult;
};

const linkButton =
  "min-h-11 rounded-lg px-1 text-left font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

const TITLES: Record<SignInMode, string> = {
  "sign-in": "Connexion",
  "sign-up": "Créer un compte",
  forgot: "Mot de passe oublié",
};

/** This page's address with the form `mode` shown: where a form posts, so the page after the post shows it too. */
function pathOf(mode: SignInMode): string {
  return mode === "sign-in" ? "/soft-assist" : `/soft-assist?${MODE_PARAM}=${MODE_VALUES[mode]}`;
}

/** Sign-in, sign-up and forgotten-password forms, one at a time: `result`'s form after a post, else `mode`. */
export function SignInPanel({ mode: urlMode, result }: Props) {
  const mode = result?.intent ?? urlMode;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownMode = useRef<SignInMode | null>(null);
  useEffect(() => {
    const first = shownMode.current === null;
    if (shownMode.current === mode) return;
    shownMode.current = mode;
    // The form the focus was in is gone: the new form's heading takes it (WCAG 2.4.3). On the first render, only
    // for a form the address names (a switch made before the JavaScript ran) and never away from a field in use.
    if (first && (mode === "sign-in" || document.activeElement !== document.body)) return;
    headingRef.current?.focus();
  }, [mode]);
  return (
    // Issue 30: on the islands page (signed out), `app/islands/enhancers/sign-in.ts` keeps the tabs together.
    <Card className="mx-auto flex w-full max-w-md flex-col gap-6" data-enhance="sign-in">
      <h2
        ref={headingRef}
        tabIndex={-1}
        // The islands page: a form named by the address takes the focus on load, as the hydrated page does.
        data-focus-on-load={!result && mode !== "sign-in" ? "" : undefined}
        className="text-2xl font-bold text-white outline-none"
      >
        {TITLES[mode]}
      </h2>
      {mode === "sign-in" ? <SignInForm result={result} /> : null}
      {mode === "sign-up" ? <SignUpForm result={result} /> : null}
      {mode === "forgot" ? <ForgotForm result={result} /> : null}
      <div className="flex flex-col items-start gap-1 border-t border-slate-700 pt-4 text-base">
        {mode !== "sign-in" ? <SwitchTo mode="sign-in">J'ai déjà un compte : me connecter</SwitchTo> : null}
        {mode !== "sign-up" ? <SwitchTo mode="sign-up">Pas encore de compte ? Créer un compte</SwitchTo> : null}
        {mode !== "forgot" ? <SwitchTo mode="forgot">Mot de passe oublié ?</SwitchTo> : null}
      </div>
    </Card>
  );
}

/** A button that shows another form: a GET form, so it needs no JavaScript. */
function SwitchTo({ mode, children }: { mode: SignInMode; children: string }) {
  return (
    <Form method="get" action="/soft-assist" replace preventScrollReset>
      {mode !== "sign-in" ? <input type="hidden" name={MODE_PARAM} value={MODE_VALUES[mode]} /> : null}
      <button type="submit" className={linkButton}>
        {children}
      </button>
    </Form>
  );
}

/** Whether this form's post is on its way (its button says so and is disabled). */
function useBusy(intent: SignInMode): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/** The posting form: its `intent`, its fields, its live regions, then its button ("…" while posting). */
function AccountFormShell({
  intent,
  result,
  label,
  busyLabel,
  children,
}: {
  intent: SignInMode;
  result?: SignInResult;
  label: string;
  busyLabel: string;
  children: ReactNode;
}) {
  const busy = useBusy(intent);
  return (
    <Form method="post" action={pathOf(intent)} className="flex flex-col gap-5" aria-busy={busy} data-enhance="form">
      <input type="hidden" name="intent" value={intent} />
      {children}
      {intent === "forgot" ? (
        <FormStatus tone="success">{!busy && result?.tone === "success" ? result.message : null}</FormStatus>
      ) : null}
      <FormStatus tone="error">{!busy && result?.tone === "error" ? result.message : null}</FormStatus>
      <Button type="submit" disabled={busy} data-sending-label={busyLabel}>
        {busy ? busyLabel : label}
      </Button>
    </Form>
  );
}

/** The account's address, kept after a refused post (`value`); `username` on sign-in for password managers. */
function AccountEmail({ id, autoComplete, value }: { id: string; autoComplete: "username" | "email"; value?: string }) {
  return (
    <FormField id={id} label="Adresse e-mail">
      {(control) => (
        <Input
          {...control}
          name="email"
          type="email"
          autoComplete={autoComplete}
          maxLength={ACCOUNT_LIMITS.email}
          spellCheck={false}
          required
          defaultValue={value}
        />
      )}
    </FormField>
  );
}

function SignInForm({ result }: { result?: SignInResult }) {
  const id = useId();
  return (
    <AccountFormShell intent="sign-in" result={result} label="Se connecter" busyLabel="Connexion...">
      <AccountEmail id={`${id}-email`} autoComplete="username" value={result?.values.email} />
      <FormField id={`${id}-password`} label="Mot de passe">
        {(control) => <Input {...control} name="password" type="password" autoComplete="current-password" required />}
      </FormField>
    </AccountFormShell>
  );
}

function SignUpForm({ result }: { result?: SignInResult }) {
  const id = useId();
  return (
    <AccountFormShell intent="sign-up" result={result} label="Créer mon compte" busyLabel="Création...">
      <FormField id={`${id}-name`} label="Nom">
        {(control) => (
          <Input
            {...control}
            name="name"
            autoComplete="name"
            required
            maxLength={ACCOUNT_LIMITS.name}
            defaultValue={result?.values.name}
          />
        )}
      </FormField>
      <AccountEmail id={`${id}-email`} autoComplete="email" value={result?.values.email} />
      <FormField id={`${id}-password`} label="Mot de passe" hint="Au moins 8 caractères.">
        {(control) => (
          <Input
            {...control}
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={ACCOUNT_LIMITS.passwordMin}
            maxLength={ACCOUNT_LIMITS.passwordMax}
          />
        )}
      </FormField>
    </AccountFormShell>
  );
}

/** The answer never says whether the address has an account (no account enumeration). */
export const RESET_REQUESTED_MESSAGE =
  "Si un compte existe avec cette adresse, vous allez recevoir un e-mail avec un lien pour choisir un nouveau mot de passe.";

function ForgotForm({ result }: { result?: SignInResult }) {
  const id = useId();
  return (
    <AccountFormShell intent="forgot" result={result} label="Envoyer le lien" busyLabel="Envoi...">
      <p className="text-slate-300">
        Indiquez l'adresse e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.
      </p>
      <AccountEmail id={`${id}-email`} autoComplete="email" value={result?.values.email} />
    </AccountFormShell>
  );
}
