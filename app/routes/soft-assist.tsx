/**
 * /soft-assist (spec §2 "Remote-support entry", §4 "Auth events", §6 roles;
 * issue 5): the signed-in area, rendered in the browser only (never
 * pre-rendered, noindex). While the sign-in is checked, a spinner; signed out,
 * the sign-in form (also where sign-out lands); a technician gets the
 * dashboard, anyone else the customer screen, each loaded lazily.
 *
 * The role comes from `GET /api/me`, i.e. from the server: nothing here
 * decides who may do what, it only picks a screen. Signing out in another tab
 * (BroadcastChannel) or the server ending the sign-in (`auth:ended`, e.g.
 * account deleted) reloads the account, which shows the sign-in form.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/soft-assist";
import { getMe } from "#app/remote-support/client/api.ts";
import {
  connectRealtime,
  onAuthChangeElsewhere,
  type RealtimeSocket,
} from "#app/remote-support/client/session-events.ts";
import { AreaShell, Spinner } from "#app/remote-support/ui/area-shell.tsx";
import { SignInPanel } from "#app/remote-support/ui/sign-in.tsx";
import { SignOutButton } from "#app/remote-support/ui/sign-out-button.tsx";
import { getMeta } from "#app/utils/meta.ts";

const CustomerScreen = lazy(() => import("#app/remote-support/ui/customer-screen.tsx"));
const TechnicianDashboard = lazy(() => import("#app/remote-support/ui/technician-dashboard.tsx"));

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Assistance à distance",
    description: "Espace d'assistance à distance : connexion, assistant virtuel et partage d'écran avec un technicien.",
    path: "/soft-assist",
    noindex: true,
  });

/** The signed-in account, or null (401); `failed` when the server could not answer. */
export async function clientLoader() {
  const result = await getMe();
  if (result.ok) return { user: result.data.user, failed: false };
  return { user: null, failed: result.status !== 401 };
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <AreaShell>
      <Spinner label="Vérification de la connexion…" />
    </AreaShell>
  );
}

export default function SoftAssist({ loaderData }: Route.ComponentProps) {
  const { user, failed } = loaderData;
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [socket, setSocket] = useState<RealtimeSocket | null>(null);
  // `useRevalidator()` changes with its state; effects read the latest through a ref so they are not re-run by a reload.
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const reload = () => void revalidate.current();
  const landOnSignIn = () => void navigate("/soft-assist", { replace: true });

  // Another tab signed in or out: this one follows.
  useEffect(() => onAuthChangeElsewhere(() => void revalidate.current()), []);

  const accountKey = user ? `${user.id}:${user.isTechnician}` : null;
  useEffect(() => {
    if (!accountKey) return;
    const connection = connectRealtime();
    connection.on("auth:ended", () => void revalidate.current());
    setSocket(connection);
    return () => {
      connection.disconnect();
      setSocket(null);
    };
    // Only a different account (or role) needs a new connection, not each reload of the same one.
  }, [accountKey]);

  if (!user) {
    return (
      <AreaShell intro="Connectez-vous pour démarrer une session d'assistance avec un technicien.">
        {failed ? (
          <p role="alert" className="font-medium text-red-300">
            Le service est momentanément indisponible. Veuillez réessayer dans quelques instants.
          </p>
        ) : null}
        <SignInPanel onSignedIn={reload} />
      </AreaShell>
    );
  }

  return (
    <AreaShell
      title={user.isTechnician ? "Tableau de bord technicien" : "Assistance à distance"}
      intro={`Bonjour ${user.name}.`}
      actions={<SignOutButton onSignedOut={landOnSignIn} />}
    >
      <Suspense fallback={<Spinner label="Chargement…" />}>
        {user.isTechnician ? (
          <TechnicianDashboard user={user} socket={socket} />
        ) : (
          <CustomerScreen user={user} socket={socket} />
        )}
      </Suspense>
    </AreaShell>
  );
}
