/**
 * Root layout (spec §2 "Shared layout"): `<html lang="fr">`, skip link,
 * particle background, fixed header, footer, scroll restoration (a new page
 * starts at the top; Back restores the position).
 *
 * Scripts (issue 16, docs/decisions/013; issue 30, 029): a route whose `handle` is `ISLANDS_HANDLE` (the
 * content pages, the public forms) or `islandsWhen(…)` of its data (signed-out /soft-assist) gets only the islands script (`app/islands/main.ts`): no React
 * Router runtime, no hydration of the page, links load pre-rendered pages, and the browser restores
 * scroll positions itself. Every other route (forms, signed-in area) is hydrated in full and
 * navigates client-side. In dev every page is hydrated in full (Vite serves no islands bundle).
 */
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import islandsEntry from "virtual:islands-entry";
import type { Route } from "./+types/root";
import appCss from "./app.css?inline";
import { ParticleBackground } from "#app/components/layout/particle-background.tsx";
import { SiteFooter } from "#app/components/layout/site-footer.tsx";
import { SiteHeader } from "#app/components/layout/site-header.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { usesIslands } from "#app/islands/names.ts";
import { getPublicEnv } from "#app/utils/env.server.ts";
import { mailConfiguredContext } from "#app/booking/customer-mail.ts";
import { defaultShop } from "#app/config/shop.ts";
import { shopIdentityContext } from "#app/shop/use-shop.ts";
import { optionalContext } from "#app/utils/server-context.ts";
import { refuseForeignActions } from "#app/utils/action-origin.ts";
import { errorPageText } from "#app/utils/error-page.ts";
import { shopFromMatches } from "#app/utils/meta.ts";

/** Issue 30: the Origin check of every page's form, refused in French (see `react-router.config.ts`). */
export const middleware: Route.MiddlewareFunction[] = [refuseForeignActions];

/** Issue 30: the error page's title (the boundary here renders no other route's meta); pages set their own. */
export const meta: Route.MetaFunction = ({ error, matches }) =>
  error ? [{ title: `${errorPageText(error).title} | ${shopFromMatches(matches).name}` }] : [];

/** Issue 29: `shop`, the identity the server holds now (« Boutique »), for `useShop()` and `getMeta()`. */
export function loader({ context }: Route.LoaderArgs) {
  const shop = optionalContext(context, shopIdentityContext) ?? defaultShop;
  // Issue 40: the booking pages promise a mail only when one leaves the server (`useCustomerMail`).
  const mailConfigured = optionalContext(context, mailConfiguredContext) ?? true;
  return { env: getPublicEnv(), year: new Date().getFullYear(), shop, mailConfigured };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  // Only ever true in the server render: a page the browser renders always has the runtime.
  const page = matches.at(-1);
  const islands = import.meta.env.SSR && import.meta.env.PROD && usesIslands(page?.handle, page?.loaderData);
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#020617" />
        <Meta />
        {/*
          The stylesheet is inlined into the server-rendered HTML so the first paint waits for no
          other request (Lighthouse FCP on slow 4G). The client bundle does not carry it: hydration
          keeps the server's <style> and React never rewrites an unchanged dangerouslySetInnerHTML.
        */}
        <style suppressHydrationWarning dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? appCss : "" }} />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col font-sans antialiased">
        <a
          href="#contenu"
          className="sr-only z-50 rounded-lg bg-sky-400 px-4 py-2 font-semibold text-slate-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Aller au contenu
        </a>
        <ParticleBackground />
        <SiteHeader />
        <main id="contenu" tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
        <SiteFooter renderedYear={data?.year ?? new Date().getFullYear()} />
        {islands ? (
          <script type="module" src={islandsEntry} />
        ) : (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { title, text } = errorPageText(error);
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-4 pt-32 pb-20">
      <h1 className="text-3xl font-bold text-white">{title}</h1>
      <p className="text-lg text-slate-300">{text}</p>
      <ButtonLink to="/">Retour à l'accueil</ButtonLink>
    </section>
  );
}
