/**
 * /soft-assist/gerant?jeton=… (issue 29): the one-time set-up link the server prints at start while no
 * manager (« gérant ») account exists. The owner types a name, an e-mail address and a password, gets the
 * manager account and is signed in to the dashboard. Once a manager exists the link is refused. Rendered
 * in the browser only, noindex; the token leaves this page only for `POST /api/staff/setup…`.
 */
import type { Route } from "./+types/soft-assist.gerant";
import { AreaShell, Spinner } from "#app/remote-support/ui/area-shell.tsx";
import { checkSetup, completeSetup } from "#app/staff/client.ts";
import { LinkSignUp } from "#app/staff/link-sign-up.tsx";
import { STAFF_MESSAGES } from "#app/staff/protocol.ts";
import { getMeta } from "#app/utils/meta.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Compte du gérant",
    description: "Créez le compte du gérant de l'atelier.",
    path: "/soft-assist/gerant",
    noindex: true,
  });

export function clientLoader({ request }: Route.ClientLoaderArgs) {
  return { token: new URL(request.url).searchParams.get("jeton") };
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <AreaShell title="Compte du gérant">
      <Spinner label="Chargement…" />
    </AreaShell>
  );
}

const submit = (token: string, fields: { name: string; email: string; password: string }) =>
  completeSetup({ token, ...fields });

export default function ManagerSetup({ loaderData }: Route.ComponentProps) {
  return (
    <AreaShell title="Compte du gérant" intro="Créez le compte du gérant de l'atelier : il invite ensuite l'équipe.">
      <LinkSignUp
        token={loaderData.token}
        heading="Le compte du gérant"
        check={checkSetup}
        submit={submit}
        asksEmail
        submitLabel="Créer le compte gérant"
        missingToken={STAFF_MESSAGES.setupUnknown}
      />
    </AreaShell>
  );
}
