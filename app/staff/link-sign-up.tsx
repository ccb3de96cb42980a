/**
 * Issue 29: the form of a single-use link that makes a staff account, shared by the technician's
 * invitation page (`/soft-assist/invitation`) and the manager set-up page (`/soft-assist/gerant`). On
 * mount the link is checked (`check`): a used, expired or unknown link shows the server's French reason
 * at once instead of a form. Once the account is made the server has signed it in (its cookie came with
 * the answer): the page goes to `/soft-assist`, the dashboard.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button, ButtonLink } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import { Spinner } from "#app/remote-support/ui/area-shell.tsx";
import { ACCOUNT_LIMITS } from "#app/remote-support/account-limits.ts";
import type { StaffResult } from "./client.ts";

type Fields = { name: string; email: string; password: string };

export type LinkSignUpProps = {
  /** The link's token (`?jeton=`), or null when the address had none. */
  token: string | null;
  heading: string;
  /** Checks the link: the invited address when the server gives one. */
  check: (token: string) => Promise<StaffResult<{ email?: string }>>;
  /** Makes the account. */
  submit: (token: string, fields: Fields) => Promise<StaffResult<{ message: string }>>;
  /** The set-up link asks the address; an invitation's is fixed. */
  asksEmail: boolean;
  submitLabel: string;
  /** Said when the page has no token at all. */
  missingToken: string;
};

export function LinkSignUp({ token, heading, check, submit, asksEmail, submitLabel, missingToken }: LinkSignUpProps) {
  const id = useId();
  const navigate = useNavigate();
  const [state, setState] = useState<
    { kind: "checking" } | { kind: "ready"; email: string } | { kind: "gone"; message: string }
  >(token ? { kind: "checking" } : { kind: "gone", message: missingToken });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!token) return;
    let current = true;
    void check(token).then((result) => {
      if (!current) return;
      setState(
        result.ok ? { kind: "ready", email: result.data.email ?? "" } : { kind: "gone", message: result.message },
      );
    });
    return () => {
      current = false;
    };
  }, [token, check]);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    setBusy(true);
    setError("");
    setFieldErrors({});
    const result = await submit(token, { name: text("name"), email: text("email"), password: text("password") });
    if (result.ok) return void navigate("/soft-assist", { replace: true });
    setBusy(false);
    if (result.status === 410) return setState({ kind: "gone", message: result.message });
    setFieldErrors(result.fieldErrors ?? {});
    setError(result.message);
  }

  return (
    <Card className="mx-auto flex w-full max-w-md flex-col gap-5">
      {state.kind === "checking" ? (
        <Spinner label="Vérification du lien…" />
      ) : state.kind === "gone" ? (
        <>
          <p role="alert" className="font-medium text-red-300">
            {state.message}
          </p>
          <ButtonLink to="/soft-assist">Aller à la connexion</ButtonLink>
        </>
      ) : (
        <form className="flex flex-col gap-5" onSubmit={send} noValidate>
          <h2 className="text-2xl font-bold text-white">{heading}</h2>
          {asksEmail ? null : (
            <p className="text-slate-200">
              Adresse e-mail du compte : <span className="font-semibold break-all text-white">{state.email}</span>
            </p>
          )}
          <FormField id={`${id}-name`} label="Nom" required error={fieldErrors.name}>
            {(control) => (
              <Input {...control} name="name" autoComplete="name" maxLength={ACCOUNT_LIMITS.name} required />
            )}
          </FormField>
          {asksEmail ? (
            <FormField id={`${id}-email`} label="Adresse e-mail" required error={fieldErrors.email}>
              {(control) => (
                <Input
                  {...control}
                  name="email"
                  type="email"
                  autoComplete="email"
                  maxLength={ACCOUNT_LIMITS.email}
                  required
                />
              )}
            </FormField>
          ) : null}
          <FormField
            id={`${id}-password`}
            label="Mot de passe"
            required
            hint="Au moins 8 caractères."
            error={fieldErrors.password}
          >
            {(control) => (
              <Input
                {...control}
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={ACCOUNT_LIMITS.passwordMin}
                maxLength={ACCOUNT_LIMITS.passwordMax}
                required
              />
            )}
          </FormField>
          <FormStatus tone="error">{error || null}</FormStatus>
          <Button type="submit" disabled={busy}>
            {busy ? "Création du compte…" : submitLabel}
          </Button>
        </form>
      )}
    </Card>
  );
}
