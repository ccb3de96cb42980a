/**
 * Root layout (spec §2 "Shared layout"): `<html lang="fr">`, skip link,
 * particle background, fixed header, footer, scroll restoration (a new page
 * starts at the top; Back restores the position).
 */
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import appCss from "./app.css?inline";
import { ParticleBackground } from "#app/components/layout/particle-background.tsx";
import { SiteFooter } from "#app/components/layout/site-footer.tsx";
import { SiteHeader } from "#app/components/layout/site-header.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { getPublicEnv } from "#app/utils/env.server.ts";

export function loader() {
  return { env: getPublicEnv(), year: new Date().getFullYear() };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
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
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-6 px-4 pt-32 pb-20">
      <h1 className="text-3xl font-bold text-white">{notFound ? "Page introuvable" : "Une erreur est survenue"}</h1>
      <p className="text-lg text-slate-300">
        {notFound
          ? "Cette page n'existe pas ou a été déplacée."
          : "Nous n'avons pas pu afficher cette page. Veuillez réessayer dans quelques instants."}
      </p>
      <ButtonLink to="/">Retour à l'accueil</ButtonLink>
    </section>
  );
}
