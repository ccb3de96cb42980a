/**
 * /soft-assist/nouveau-mot-de-passe (issue 5, password reset): where the link
 * of the reset mail lands. better-auth checks the mailed token at
 * `/api/auth/reset-password/<token>` and redirects here with `?token=…` (or
 * `?error=INVALID_TOKEN` when it expired or was used). Rendered in the
 * browser only, noindex; the token never leaves this page except to
 * `POST /api/auth/reset-password`, which also ends every sign-in of the
 * account (other tabs learn it through `auth:ended`).
 */
import { useId, useState, type FormEvent } from "react";
import type { Route } from "./+types/soft-assist.nouveau-mot-de-passe";
import { ButtonLink, Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import { authMessage } from "#app/remote-support/account.ts";
import { authPost } from "#app/remote-support/client/api.ts";
import { AreaShell, Spinner } from "#app/remote-support/ui/area-shell.tsx";
import { getMeta } from "#app/utils/meta.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Nouveau mot de passe",
    description: "Choisissez un nouveau mot de passe pour votre espace d'assistance à distance.",
    path: "/soft-assist/nouveau-mot-de-passe",
    noindex: true,
  });

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const error = url.searchParams.get("error");
  return { token: error ? null : token };
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <AreaShell title="Nouveau mot de passe">
      <Spinner label="Chargement…" />
    </AreaShell>
  );
}

export default function NewPassword({ loaderData }: Route.ComponentProps) {
  const id = useId();
  const { token } = loaderData;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (password.length < 8) return setError("Le mot de passe doit contenir au moins 8 caractères.");
    setBusy(true);
    setError("");
    const result = await authPost("/reset-password", { newPassword: password, token });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setDone(true);
  }

  return (
    <AreaShell title="Nouveau mot de passe">
      <Card className="mx-auto flex w-full max-w-md flex-col gap-5">
        {!token ? (
          <>
            <p role="alert" className="font-medium text-red-300">
              {authMessage(400, "INVALID_TOKEN", "")}
            </p>
            <ButtonLink to="/soft-assist">Retour à la connexion</ButtonLink>
          </>
        ) : done ? (
          <>
            <FormStatus tone="success">
              Votre mot de passe a été changé. Vous pouvez maintenant vous connecter.
            </FormStatus>
            <ButtonLink to="/soft-assist">Se connecter</ButtonLink>
          </>
        ) : (
          <form className="flex flex-col gap-5" onSubmit={submit}>
            <h2 className="text-2xl font-bold text-white">Choisissez un nouveau mot de passe</h2>
            <FormField id={`${id}-password`} label="Nouveau mot de passe" hint="Au moins 8 caractères.">
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
              {busy ? "Enregistrement..." : "Enregistrer le mot de passe"}
            </Button>
          </form>
        )}
      </Card>
    </AreaShell>
  );
}
