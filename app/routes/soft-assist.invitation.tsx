/**
 * /soft-assist/invitation?jeton=… (issue 29): where the manager's invitation mail lands. The invited
 * technician chooses a name and a password (the address is the invitation's) and is signed in to the
 * dashboard. A used, expired or replaced link says so in French. Rendered in the browser only, noindex;
 * the token leaves this page only for `POST /api/staff/invitation/…` (never in a logged URL: the server
 * masks query values).
 */
import { useCallback } from "react";
import type { Route } from "./+types/soft-assist.invitation";
import { AreaShell, Spinner } from "#app/remote-support/ui/area-shell.tsx";
import { acceptInvitation, checkInvitation } from "#app/staff/client.ts";
import { LinkSignUp } from "#app/staff/link-sign-up.tsx";
import { STAFF_MESSAGES } from "#app/staff/protocol.ts";
import { getMeta } from "#app/utils/meta.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Invitation dans l'équipe",
    description: "Créez votre compte technicien de l'atelier à partir de votre invitation.",
    path: "/soft-assist/invitation",
    noindex: true,
  });

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return { token: new URL(request.url).searchParams.get("jeton") };
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <AreaShell title="Invitation dans l'équipe">
      <Spinner label="Chargement…" />
    </AreaShell>
  );
}

export default function Invitation({ loaderData }: Route.ComponentProps) {
  const submit = useCallback(
    (token: string, fields: { name: string; password: string }) =>
      acceptInvitation({ token, name: fields.name, password: fields.password }),
    [],
  );
  return (
    <AreaShell title="Invitation dans l'équipe" intro="Créez votre compte technicien de l'atelier.">
      <LinkSignUp
        token={loaderData.token}
        heading="Votre compte technicien"
        check={checkInvitation}
        submit={submit}
        asksEmail={false}
        submitLabel="Créer mon compte"
        missingToken={STAFF_MESSAGES.invitationUnknown}
      />
    </AreaShell>
  );
}
