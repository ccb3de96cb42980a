/**
 * The Express request handler (issue 2), apart from the HTTP server
 * (`server/index.ts`) so tests can drive it with supertest.
 *
 * Before Express (production): hashed assets precompressed at build time (`static-files.ts`, issue 39 §1),
 * then the public pages kept in memory (`prerendered.ts`).
 *
 * Order: security headers (helmet and Permissions-Policy) → compression →
 * /healthz → /api/auth → Origin check of the rest of /api → API routers (`api-routes.ts`) →
 * static assets → pre-rendered pages → React Router → error page. No stack
 * trace ever reaches a visitor; errors are logged with pino.
 *
 * Issue 13: `trust proxy` from TRUST_PROXY (§1); redirects only to our own
 * pages' paths (§2); cross-site state-changing /api requests refused and
 * Permissions-Policy on every answer (§12, `server/security.ts`); styles
 * allowed by hash, without 'unsafe-inline' (§12c).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { createRequestHandler as createFetchHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { Connect } from "vite";
import { cspNonceContext } from "#app/utils/csp-nonce.ts";
import { accountServicesContext, formServicesContext, requestOriginContext } from "#app/utils/server-context.ts";
import { createAccountServices } from "./account-forms.ts";
import { BODY_LIMIT_BYTES, limitPageBody } from "./api.ts";
import { mountApiRoutes, type ApiServices } from "./api-routes.ts";
import { bookingServicesContext } from "#app/booking/context.ts";
import { mailConfiguredContext } from "#app/booking/customer-mail.ts";
import { repairTrackingContext } from "#app/repairs/tracking-context.ts";
import { downloadsContext } from "#app/remote-support/downloads-context.ts";
import { cspDirectives, sourceHash } from "./csp.ts";
import { createDownloads, DESKTOP_DIR } from "./downloads.ts";
import { redactUrl, serializeError } from "./logger.ts";
import { PERMISSIONS_POLICY, refuseUnreadableOrigin } from "./security.ts";
import { captureHeaders, createPrerenderedResponder, pagePathOf } from "./prerendered.ts";
import { createAssetResponder, publicFiles } from "./static-files.ts";
import { createPageCache, type CachedPage, type PageCache } from "./page-cache.ts";
import { snapshotFeeder, type PageSnapshot } from "./page-snapshot.ts";
import type { PageChanges } from "./page-changes.ts";
import { PRERENDERED_PATHS } from "#app/config/public-routes.ts";
import { QUEUED_SUBMIT_SCRIPT } from "#app/utils/queued-submit.ts";

export type AppOptions = ApiServices & {
  /**
   * Issue 29: changes of the shop's data (settings, prices) announced by its services; the public pages
   * in memory are rendered again on each (docs/decisions/025).
   */
  pageChanges?: PageChanges;
  /**
   * Issue 29: sets the router contexts every render needs beyond the request's own (e.g. the shop's
   * current settings), for visitors' requests and the public pages rendered for memory alike.
   */
  sharedContext?: (context: RouterContextProvider) => void;
  logger: Logger;
  /** Issue 30 §2: where the public pages are kept for the next start's first second (production). */
  pageSnapshot?: PageSnapshot;
} & (
    | { mode: "production"; buildDir: string }
    | {
        mode: "development";
        /** Vite's connect middlewares and a loader for the live server build. */
        vite: { middlewares: Connect.Server; loadBuild: () => Promise<ServerBuild> };
      }
  );

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Builds the request listener. In production it reads the build (server
 * bundle and pre-rendered pages) once; pre-rendered pages are answered before
 * Express, with the same helmet headers.
 */
export async function createApp(options: AppOptions): Promise<RequestListener> {
  const { env, logger } = options;
  const development = options.mode === "development";
  const https = env.PUBLIC_URL.startsWith("https:");
  const app = express();
  app.disable("x-powered-by");
  // Issue 13 §1: a hop count or the proxies' addresses, never `true` (the visitor's own X-Forwarded-For would win).
  app.set("trust proxy", env.TRUST_PROXY);

  app.use(
    pinoHttp({
      logger,
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url?.startsWith("/assets/") === true },
      // Method, path and status are enough to follow a request; headers would put visitors' data in the logs,
      // and the URL itself carries reset tokens and session codes (issue 13 §6). pino-http replaces the
      // logger's `err` serializer with its own unless given one.
      serializers: {
        req: (req: { id?: unknown; method?: string; url?: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
        err: serializeError,
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    }),
  );

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  // Production: the public pages, rendered here and kept in memory (issue 29, docs/decisions/025); the home
  // page at once, for its stylesheet's hash: every server-rendered document inlines the same stylesheet
  // (app/root.tsx), so their CSP allows that hash, and no 'unsafe-inline' (issue 13 §12c).
  const build =
    options.mode === "production"
      ? ((await import(path.join(options.buildDir, "server", "index.js"))) as ServerBuild)
      : undefined;
  const snapshot = snapshotFeeder(options.pageSnapshot, BRAND_PAGE);
  const pages = build
    ? publicPages(build, { https, publicUrl: env.PUBLIC_URL, logger, sharedContext: options.sharedContext }, snapshot)
    : undefined;
  if (pages) options.pageChanges?.subscribe((paths) => void pages.refresh(paths));
  const home = await pages?.load("/");
  if (pages && !home) throw new Error("La page d'accueil n'a pas pu être rendue : voir le journal.");
  const styleSources = home?.styleHashes ?? [];
  const directives = cspDirectives({ scriptSources: [], styleSources, development, https });
  const helmetHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...directives,
        "script-src": development
          ? (directives["script-src"] ?? [])
          : [
              "'self'",
              // Issue 39 §2: the signed-in area's inline script that keeps a form sent before hydration.
              sourceHash(QUEUED_SUBMIT_SCRIPT),
              (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
            ],
      },
    },
    strictTransportSecurity: env.NODE_ENV === "production" ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  // One middleware for helmet's headers and ours, so captureHeaders() gives pre-rendered pages both.
  const securityHeaders: RequestHandler = (req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    helmetHeaders(req, res, next);
  };
  app.use(securityHeaders);
  // Issue 15: the desktop app's builds, precompressed at build time, so before compression().
  const downloads = createDownloads({
    dir: options.mode === "production" ? path.join(options.buildDir, "desktop") : DESKTOP_DIR,
    publicUrl: env.PUBLIC_URL,
  });
  app.use(downloads.router);
  app.use(compression());

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });

  mountApiRoutes(app, options);
  app.use(limitPageBody(BODY_LIMIT_BYTES));

  const accounts = createAccountServices({
    auth: options.auth,
    sessions: options.sessions,
    publicUrl: env.PUBLIC_URL,
    logger,
  });
  const loadContext = (req: express.Request, res: express.Response): RouterContextProvider => {
    const context = new RouterContextProvider();
    options.sharedContext?.(context);
    context.set(accountServicesContext, accounts);
    context.set(cspNonceContext, res.locals.cspNonce as string);
    context.set(formServicesContext, options.forms);
    context.set(bookingServicesContext, options.booking);
    if (options.mail) context.set(mailConfiguredContext, options.mail.configured);
    if (options.repairs) context.set(repairTrackingContext, options.repairs);
    context.set(requestOriginContext, { ip: req.ip ?? "inconnue" });
    // Issue 40: the signed-out /soft-assist links to the builds, rendered by the server.
    context.set(downloadsContext, downloads);
    return context;
  };

  let handler: RequestHandler;
  let prerendered: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  let assets: ReturnType<typeof createAssetResponder> | undefined;
  if (options.mode === "development") {
    // A connect server is an (req, res, next) middleware; Express's typings only differ in the request type.
    app.use(options.vite.middlewares as unknown as RequestHandler);
    const loadBuild = options.vite.loadBuild;
    handler = createRequestHandler({ build: loadBuild, mode: "development", getLoadContext: loadContext });
  } else {
    const clientDir = path.join(options.buildDir, "client");
    const sharedHeaders = captureHeaders(securityHeaders);
    prerendered = createPrerenderedResponder(pages!, sharedHeaders);
    assets = createAssetResponder(clientDir, sharedHeaders);
    snapshot.setHeaders(sharedHeaders);
    // The public pages live at clean URLs; `…/index.html` (their address when they were files) leads there.
    // Issue 13 §2: the Location is one of our pages' own paths, never built from the request
    // (`//evil.com/index.html` gave `Location: //evil.com`); other paths go on (static files, then 302 to /).
    app.get(/\/index\.html(\.br|\.gz)?$/, (req, res, next) => {
      const page = req.path.replace(/\/index\.html(\.br|\.gz)?$/, "") || "/";
      if (!pages!.paths.has(page)) return next();
      res.redirect(301, page);
    });
    // Issue 18 §3: while the bonus is shown, a brand page's loader data come from the loader, not the build.
    app.use((req, res, next) => {
      if ((req as RenderedAfresh)[RENDER_AFRESH]) return void handler(req, res, next);
      next();
    });
    app.use(publicFiles(clientDir));
    handler = createRequestHandler({ build: build!, mode: "production", getLoadContext: loadContext });
  }
  app.all("/{*splat}", refuseUnreadableOrigin, handler);

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    // React Router's adapter makes a URL of the request's Host (`Host: x:99999` cannot be one): the request's
    // fault, answered 400 like a path that is not percent-decodable (`static-files.ts`).
    const unreadable = (error as { code?: unknown } | null)?.code === "ERR_INVALID_URL";
    const status = unreadable
      ? 400
      : typeof error?.status === "number" && error.status >= 400 && error.status < 600
        ? error.status
        : 500;
    if (status >= 500) req.log.error({ err: error }, "request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res
      .status(status)
      .type("html")
      .send(
        status === 404
          ? '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Page introuvable</title><p>Ce fichier est introuvable. <a href="/">Retour à l\'accueil</a></p></html>'
          : status === 400
            ? '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Demande illisible</title><p>Cette adresse ou cette demande est mal formée : vérifiez le lien. <a href="/">Retour à l\'accueil</a></p></html>'
            : '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Erreur</title><p>Une erreur est survenue. Veuillez réessayer dans quelques instants. <a href="/">Retour à l\'accueil</a></p></html>',
      );
  };
  app.use(onError);
  if (!prerendered || !pages || !assets) return app;
  const answerPrerendered = prerendered;
  const answerAsset = assets;
  const publicPageCache = pages;
  /** A page in memory is answered at once; one not rendered yet is rendered first; anything else goes to Express. */
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const pagePath = pagePathOf(req);
    if (pagePath !== undefined && publicPageCache.paths.has(pagePath) && !publicPageCache.get(pagePath)) {
      void publicPageCache.load(pagePath).then(() => answerFromMemory(req, res));
      return;
    }
    answerFromMemory(req, res);
  };
  const answerFromMemory = (req: IncomingMessage, res: ServerResponse) => {
    if (answerPrerendered(req, res)) {
      // Only built when wanted: this path answers tens of thousands of requests a second.
      if (logger.isLevelEnabled("debug"))
        logger.debug({ method: req.method, url: redactUrl(req.url) }, "page from memory");
      return;
    }
    app(req, res);
  };
  return (req, res) => {
    if (answerAsset(req, res)) return;
    if (BRAND_PAGE.test((req.url ?? "").split("?", 1)[0]!)) {
      // Issue 18 §3: the pages in memory never show the bonus; while the shop shows it, they are rendered afresh.
      void options.booking.bonusShown().then((shown) => {
        if (!shown) return answer(req, res);
        (req as RenderedAfresh)[RENDER_AFRESH] = true;
        app(req, res);
      });
      return;
    }
    answer(req, res);
  };
}

/**
 * The public pages (`PRERENDERED_PATHS`) of `build`, rendered in this process at `publicUrl` without a
 * request's context, as the build used to pre-render them: they never show a visitor's data nor the bonus.
 */
function publicPages(
  build: ServerBuild,
  options: {
    https: boolean;
    publicUrl: string;
    logger: Logger;
    sharedContext?: (context: RouterContextProvider) => void;
  },
  snapshot: { onStore: (path: string, page: CachedPage) => void },
): PageCache {
  const render = createFetchHandler(build, "production");
  const origin = options.publicUrl.replace(/\/+$/, "");
  return createPageCache({
    paths: PRERENDERED_PATHS,
    https: options.https,
    logger: options.logger,
    onStore: snapshot.onStore,
    async render(pagePath) {
      const context = new RouterContextProvider();
      options.sharedContext?.(context);
      const response = await render(new Request(`${origin}${pagePath}`), context);
      return { status: response.status, html: await response.text() };
    },
  });
}

/** The brand (and category) pages and their loader data: `/services/<slug>-repair` and `….data`. */
const BRAND_PAGE = /^\/services\/[a-z0-9-]+-repair(\.data)?\/?$/;
const RENDER_AFRESH = Symbol("render-afresh");
type RenderedAfresh = { [RENDER_AFRESH]?: boolean };
