/**
 * The signed-out face of /soft-assist (spec §2 "Remote-support entry": the
 * sign-in entry, also where sign-out lands): sign-in by e-mail and password,
 * account creation for customers, and "Mot de passe oublié ?" which asks the
 * server to mail a reset link. Technicians are never created here (issue 5:
 * only `npm run user` gives that role).
 */
import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import { authPost } from "#app/remote-support/client/api.ts";
import { announceAuthChange } from "#app/remote-support/client/session-events.ts";

export type SignInMode = "sign-in" | "sign-up" | "forgot";

/** Where the reset link of the mail lands (better-auth redirects there with `?token=`). */
export const RESET_PASSWORD_PATH = "/soft-assist/nouveau-mot-de-passe";

type Props = {
  /** Called once the cookie is set, so the route reloads the account. */
  onSignedIn: () => void;
  initialMode?: SignInMode;
};

const linkButton =
  "min-h-11 rounded-lg px-1 text-left font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** Sign-in, sign-up and forgotten-password forms, one at a time. */
export function SignInPanel({ onSignedIn, initialMode = "sign-in" }: Props) {
  const [mode, setMode] = useState<SignInMode>(initialMode);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const switchTo = (next: SignInMode) => {
    setMode(next);
    // The form the focus was in is gone: the new form's heading takes it (WCAG 2.4.3).
    requestAnimationFrame(() => headingRef.current?.focus());
  };
  const title = mode === "sign-in" ? "Connexion" : mode === "sign-up" ? "Créer un compte" : "Mot de passe oublié";
  return (
    <Card className="mx-auto flex w-full max-w-md flex-col gap-6">
      <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-white outline-none">
        {title}
      </h2>
      {mode === "sign-in" ? <SignInForm onSignedIn={onSignedIn} /> : null}
      {mode === "sign-up" ? <SignUpForm onSignedIn={onSignedIn} /> : null}
      {mode === "forgot" ? <ForgotForm /> : null}
      <div className="flex flex-col items-start gap-1 border-t border-slate-700 pt-4 text-base">
        {mode !== "sign-in" ? (
          <button type="button" className={linkButton} onClick={() => switchTo("sign-in")}>
            J'ai déjà un compte : me connecter
          </button>
        ) : null}
        {mode !== "sign-up" ? (
          <button type="button" className={linkButton} onClick={() => switchTo("sign-up")}>
            Pas encore de compte ? Créer un compte
          </button>
        ) : null}
        {mode !== "forgot" ? (
          <button type="button" className={linkButton} onClick={() => switchTo("forgot")}>
            Mot de passe oublié ?
          </button>
        ) : null}
      </div>
    </Card>
  );
}

function useFormState() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [success, setSuccess] = useState("");
  return { busy, setBusy, error, setError, success, setSuccess };
}

function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const id = useId();
  const { busy, setBusy, error, setError } = useFormState();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError("");
    const result = await authPost(
      "/sign-in/email",
      { email: String(data.get("email") ?? "").trim(), password: String(data.get("password") ?? "") },
      "E-mail ou mot de passe incorrect.",
    );
    setBusy(false);
    if (!result.ok) return setError(result.message);
    announceAuthChange("signed-in");
    onSignedIn();
  }
  return (
    <form className="flex flex-col gap-5" onSubmit={submit} aria-busy={busy}>
      <FormField id={`${id}-email`} label="Adresse e-mail">
        {(control) => <Input {...control} name="email" type="email" autoComplete="username" required />}
      </FormField>
      <FormField id={`${id}-password`} label="Mot de passe">
        {(control) => <Input {...control} name="password" type="password" autoComplete="current-password" required />}
      </FormField>
      <FormStatus tone="error">{error || null}</FormStatus>
      <Button type="submit" disabled={busy}>
        {busy ? "Connexion..." : "Se connecter"}
      </Button>
    </form>
  );
}

function SignUpForm({ onSignedIn }: { onSignedIn: () => void }) {
  const id = useId();
  const { busy, setBusy, error, setError } = useFormState();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const password = String(data.get("password") ?? "");
    if (password.length < 8) return setError("Le mot de passe doit contenir au moins 8 caractères.");
    setBusy(true);
    setError("");
    const result = await authPost("/sign-up/email", {
      name: String(data.get("name") ?? "").trim(),
      email: String(data.get("email") ?? "").trim(),
      password,
    });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    // better-auth signs the new account in (autoSignIn).
    announceAuthChange("signed-in");
    onSignedIn();
  }
  return (
    <form className="flex flex-col gap-5" onSubmit={submit} aria-busy={busy}>
      <FormField id={`${id}-name`} label="Nom">
        {(control) => <Input {...control} name="name" autoComplete="name" required maxLength={100} />}
      </FormField>
      <FormField id={`${id}-email`} label="Adresse e-mail">
        {(control) => <Input {...control} name="email" type="email" autoComplete="email" required />}
      </FormField>
      <FormField id={`${id}-password`} label="Mot de passe" hint="Au moins 8 caractères.">
        {(control) => (
          <Input
            {...control}
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
          />
        )}
      </FormField>
      <FormStatus tone="error">{error || null}</FormStatus>
      <Button type="submit" disabled={busy}>
        {busy ? "Création..." : "Créer mon compte"}
      </Button>
    </form>
  );
}

/** The answer never says whether the address has an account (no account enumeration). */
export const RESET_REQUESTED_MESSAGE =
  "Si un compte existe avec cette adresse, vous allez recevoir un e-mail avec un lien pour choisir un nouveau mot de passe.";

function ForgotForm() {
  const id = useId();
  const { busy, setBusy, error, setError, success, setSuccess } = useFormState();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError("");
    setSuccess("");
    const result = await authPost("/request-password-reset", {
      email: String(data.get("email") ?? "").trim(),
      // Absolute, on this page's origin: a bare path would be resolved against the configured public URL,
      // which is not where the visitor is when the site is reached under another name (tests, a staging host).
      redirectTo: new URL(RESET_PASSWORD_PATH, window.location.origin).href,
    });
    setBusy(false);
    // Only a rate limit or a network failure is worth saying; anything else gets the neutral answer.
    if (!result.ok && (result.status === 429 || result.status === 0)) return setError(result.message);
    setSuccess(RESET_REQUESTED_MESSAGE);
  }
  return (
    <form className="flex flex-col gap-5" onSubmit={submit} aria-busy={busy}>
      <p className="text-slate-300">
        Indiquez l'adresse e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.
      </p>
      <FormField id={`${id}-email`} label="Adresse e-mail">
        {(control) => <Input {...control} name="email" type="email" autoComplete="email" required />}
      </FormField>
      <FormStatus tone="success">{success || null}</FormStatus>
      <FormStatus tone="error">{error || null}</FormStatus>
      <Button type="submit" disabled={busy}>
        {busy ? "Envoi..." : "Envoyer le lien"}
      </Button>
    </form>
  );
}
