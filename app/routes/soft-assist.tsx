/**
 * /soft-assist (spec §2 "Remote-support entry", §4 "Auth events", §6 roles;
 * issues 5 and 16): the signed-in area, rendered by the server per request
 * (never pre-rendered). The loader reads the session cookie and picks the
 * first view: signed out, « Obtenir de l'aide » (issue 40: remote help
 * without an account, its steps, its price and the app's download for the
 * visitor's system) above the sign-in form (also where sign-out lands),
 * usable before any JavaScript; a technician, the dashboard; anyone else, the
 * customer screen — each with the data it opens with, so the server's HTML
 * is the screen and nothing moves when the JavaScript arrives. The two
 * screens are separate chunks: each role downloads only its own.
 *
 * The role comes from the server; nothing here decides who may do what, it
 * only picks a screen. Signing out in another tab (BroadcastChannel) or the
 * server ending the sign-in (`auth:ended`, e.g. account deleted) reloads the
 * loader, which then renders the sign-in form. Indexed: docs/decisions/014.
 */
import { lazy, memo, Suspense, useCallback, useEffect, useRef, useState } from "react";
import {
  data,
  redirect,
  useLocation,
  useNavigate,
  useRevalidator,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/soft-assist";
import { ACCOUNT_LIMITS, AccountFormSchema } from "#app/remote-support/account.ts";
import { announceAuthChange, onAuthChangeElsewhere } from "#app/remote-support/client/auth-broadcast.ts";
import { createRealtimeStore, type RealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { AreaShell, Spinner } from "#app/remote-support/ui/area-shell.tsx";
import { PublicHelp } from "#app/remote-support/ui/public-help.tsx";
import { platformOfRequest } from "#app/remote-support/client/downloads.ts";
import { downloadsContext } from "#app/remote-support/downloads-context.ts";
import type { DevicePlatform, DownloadView } from "#app/remote-support/device-protocol.ts";
import { modeOf, RESET_REQUESTED_MESSAGE, SignInPanel, type SignInResult } from "#app/remote-support/ui/sign-in.tsx";
import { unreadableForm } from "#app/requests/submit.server.ts";
import { getMeta } from "#app/utils/meta.ts";
import { islandsWhen } from "#app/islands/names.ts";
import { QueuedSubmitScript } from "#app/utils/use-queued-submit.tsx";
import { announcePendingSignIn } from "#app/remote-support/client/pending-sign-in.ts";
import {
  accountServicesContext,
  optionalContext,
  requestOriginContext,
  requireContext,
  type AreaView,
} from "#app/utils/server-context.ts";

const CustomerScreen = lazy(() => import("#app/remote-support/ui/customer-screen.tsx"));
const TechnicianDashboard = lazy(() => import("#app/remote-support/ui/technician-dashboard.tsx"));
// With the API client it needs: none of it is downloaded by the signed-out view.
const SignOutButton = lazy(() =>
  import("#app/remote-support/ui/sign-out-button.tsx").then((module) => ({ default: module.SignOutButton })),
);

/** Where the sign-in form starts (the intro's link for customers with an account and technicians, issue 40). */
const SIGN_IN_ANCHOR = "connexion";
const introLink =
  "font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

type PublicHelpData = { downloads: DownloadView[]; platform: DevicePlatform | null };

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Assistance à distance",
    description:
      "Assistance informatique à distance, sans compte : téléchargez notre logiciel pour Windows, macOS ou Linux, donnez le code affiché à un technicien de l'atelier, qui vous aide avec votre accord.",
    path: "/soft-assist",
  });

/** Personal: never stored by a shared cache or the browser's back-forward cache of another account. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/**
 * Issue 30 (decision 029): signed out, the page is an islands page (its forms post natively, enhanced by
 * plain DOM code); signed in, the screens hydrate in full.
 */
export const handle = islandsWhen<{ view: AreaView }>((data) => data?.view.user === null);

/**
 * The first view (`AreaView`); `failed` when the database could not be read (the page says so). Signed out,
 * `help` (issue 40): the app's builds and the visitor's system for « Obtenir de l'aide »; null signed in.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const accounts = requireContext(context, accountServicesContext);
  try {
    const { view, setCookie } = await accounts.areaView(request);
    const headers = new Headers();
    for (const cookie of setCookie) headers.append("Set-Cookie", cookie);
    return data({ view, failed: false, help: view.user ? null : await publicHelp(request, context) }, { headers });
  } catch {
    const view: AreaView = { user: null };
    return data({ view, failed: true, help: await publicHelp(request, context) }, { status: 503 });
  }
}

/** « Obtenir de l'aide »'s data; no builds when the server gave no list or could not read it (the page says to call). */
async function publicHelp(request: Request, context: Route.LoaderArgs["context"]): Promise<PublicHelpData> {
  const downloads = await optionalContext(context, downloadsContext)
    ?.list()
    .catch(() => []);
  return { downloads: downloads ?? [], platform: platformOfRequest(request.headers) };
}

/**
 * The signed-out forms (`intent` sign-in, sign-up, forgot). Success of a
 * sign-in or sign-up: redirect here with the session cookie (post/redirect/get,
 * so a reload does not post again). Otherwise the French message and what was typed (never the password).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const accounts = requireContext(context, accountServicesContext);
  const origin = requireContext(context, requestOriginContext);
  const shown = modeOf(new URL(request.url).searchParams);
  let fields: Record<string, unknown>;
  try {
    fields = Object.fromEntries(await request.formData());
  } catch {
    // Not a form (another content type, a broken multipart body): a French 400/415, never the error page.
    const { status, message } = unreadableForm(request);
    return data(resultOf(undefined, shown, "error", message, {}), { status });
  }
  const parsed = AccountFormSchema.safeParse(fields);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "La requête est invalide.";
    return data(resultOf(fields.intent, shown, "error", message, fields), { status: 400 });
  }
  const form = parsed.data;
  const result = await accounts.submit(form, request, origin);
  if (!result.ok) return data(resultOf(form.intent, shown, "error", result.message, form), { status: result.status });
  if (form.intent === "forgot") return data(resultOf(form.intent, shown, "success", RESET_REQUESTED_MESSAGE, form));
  const headers = new Headers();
  for (const cookie of result.setCookie) headers.append("Set-Cookie", cookie);
  throw redirect("/soft-assist", { headers });
}

function resultOf(
  posted: unknown,
  fallback: SignInResult["intent"],
  tone: SignInResult["tone"],
  message: string,
  values: Record<string, unknown>,
): SignInResult {
  const intent = posted === "sign-in" || posted === "sign-up" || posted === "forgot" ? posted : fallback;
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, ACCOUNT_LIMITS.email) : undefined);
  return { intent, tone, message, values: { email: text(values.email), name: text(values.name) } };
}

/** Switching forms (`?formulaire=`) only changes what is shown: the account is not read again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod === "GET" && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

export default function SoftAssist({ loaderData, actionData }: Route.ComponentProps) {
  const { view, failed, help } = loaderData;
  const user = view.user;
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const location = useLocation();
  // One store for the page's life: the lazy screens' props never change before they hydrate (see realtime-store.ts).
  const [realtime] = useState(createRealtimeStore);
  // `useRevalidator()` changes with its state; effects read the latest through a ref so they are not re-run by a reload.
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  // Stable, like everything `SignedInArea` receives (it is memoised).
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const landOnSignIn = useCallback(() => void navigateRef.current("/soft-assist", { replace: true }), []);

  // Another tab signed in or out: this one follows.
  useEffect(() => onAuthChangeElsewhere(() => void revalidate.current()), []);

  const accountKey = user ? `${user.id}:${user.isTechnician}` : null;
  // This tab went from signed out to signed in (its own form): the other tabs follow.
  const shownAccount = useRef(accountKey);
  useEffect(() => {
    if (accountKey && shownAccount.current === null) announceAuthChange("signed-in");
    // Issue 30: signed in by the islands page's form (a native post), this is the first page of the account.
    else if (accountKey) announcePendingSignIn();
    shownAccount.current = accountKey;
  }, [accountKey]);

  useEffect(() => {
    if (!accountKey) return;
    let connection: RealtimeSocket | undefined;
    let cancelled = false;
    // The Socket.IO client is a chunk of its own: the signed-out view never downloads it.
    void import("#app/remote-support/client/session-events.ts").then(({ connectRealtime }) => {
      if (cancelled) return;
      connection = connectRealtime();
      connection.on("auth:ended", () => void revalidate.current());
      realtime.set(connection);
    });
    return () => {
      cancelled = true;
      connection?.disconnect();
      realtime.set(null);
    };
    // Only a different account (or role) needs a new connection, not each reload of the same one.
  }, [accountKey, realtime]);

  if (view.user === null) {
    return (
      <AreaShell
        intro={
          <>
            Vous avez déjà un compte, ou vous êtes technicien de l'atelier ?{" "}
            <a className={introLink} href={`#${SIGN_IN_ANCHOR}`}>
              Aller à la connexion
            </a>
          </>
        }
      >
        {/* Issue 40: what remote help is, how it goes and what it costs, before any form. */}
        <PublicHelp downloads={help?.downloads ?? []} platform={help?.platform ?? null} />
        <div id={SIGN_IN_ANCHOR} className="flex scroll-mt-28 flex-col gap-4">
          {failed ? (
            <p role="alert" className="font-medium text-red-300">
              Le service est momentanément indisponible. Veuillez réessayer dans quelques instants.
            </p>
          ) : null}
          <SignInPanel mode={modeOf(new URLSearchParams(location.search))} result={actionData} />
        </div>
      </AreaShell>
    );
  }

  return <SignedInArea view={view} realtime={realtime} onSignedOut={landOnSignIn} />;
}

/**
 * The signed-in page. Memoised: the lazy parts keep the server's HTML until
 * their chunk arrives, and a re-render of the route meanwhile (a revalidation,
 * the router settling) must not reach them with new props, or React would
 * replace that HTML by the fallback (see `realtime-store.ts`).
 */
const SignedInArea = memo(function SignedInArea({
  view,
  realtime,
  onSignedOut,
}: {
  view: Exclude<AreaView, { user: null }>;
  realtime: RealtimeStore;
  onSignedOut: () => void;
}) {
  return (
    <>
      {/* Before the forms: an Entrée pressed as the page appears is kept for React (issue 39 §2). */}
      <QueuedSubmitScript />
      <AreaShell
        title={view.screen === "technician" ? "Tableau de bord technicien" : "Assistance à distance"}
        intro={`Bonjour ${view.user.name}.`}
        actions={
          <Suspense fallback={null}>
            <SignOutButton onSignedOut={onSignedOut} />
          </Suspense>
        }
      >
        <Suspense fallback={<Spinner label="Chargement…" />}>
          {view.screen === "technician" ? (
            <TechnicianDashboard
              user={view.user}
              realtime={realtime}
              initial={{ active: view.active, history: view.history }}
            />
          ) : (
            <CustomerScreen user={view.user} realtime={realtime} initialSessions={view.sessions} />
          )}
        </Suspense>
      </AreaShell>
    </>
  );
});
