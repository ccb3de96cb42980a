/**
 * The Express request handler (issue 2), apart from the HTTP server
 * (`server/index.ts`) so tests can drive it with supertest.
 *
 * Order: security headers → compression → /healthz → static assets →
 * pre-rendered pages → React Router → error page. No stack trace ever reaches
 * a visitor; errors are logged with pino.
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
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { Connect } from "vite";
import type { Env } from "../app/utils/env.server.ts";
import { cspNonceContext } from "../app/utils/csp-nonce.ts";
import { formServicesContext, requestOriginContext, type FormServices } from "../app/utils/server-context.ts";
import { toNodeHandler } from "better-auth/node";
import { BODY_LIMIT_BYTES, createApiRouter, limitPageBody } from "./api.ts";
import { CLIENT_IP_HEADER, type Auth } from "./auth.ts";
import { createRemoteSupportRouter } from "./remote-support/api.ts";
import { iceConfigFromEnv } from "./remote-support/ice.ts";
import { createAssistantRouter } from "./assistant/api.ts";
import type { AssistantService } from "./assistant/service.ts";
import type { SessionService } from "./remote-support/sessions.ts";
import { cspDirectives } from "./csp.ts";
import {
  createPrerenderedResponder,
  HTML_CACHE_CONTROL,
  loadPrerenderedPages,
  type HeaderSet,
} from "./prerendered.ts";

/** Hashed build assets never change: cache for a year. */
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** Other public files (images, video, favicon) may be replaced: one hour. */
export const PUBLIC_FILE_CACHE_CONTROL = "public, max-age=3600";

export type AppOptions = {
  env: Env;
  logger: Logger;
  /** Contact and quote requests (issue 4), for the API and the route actions. */
  forms: FormServices;
  /** Accounts (issue 5): better-auth, mounted at /api/auth. */
  auth: Auth;
  /** Remote-support sessions (issue 5), for /api/sessions…, /api/reports, /api/requests, /api/me. */
  sessions: SessionService;
  /** The assistant (issue 7), for /api/assistant/…. */
  assistant: AssistantService;
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
  if (env.TRUST_PROXY) app.set("trust proxy", true);

  app.use(
    pinoHttp({
      logger,
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url?.startsWith("/assets/") === true },
      // Method, path and status are enough to follow a request; headers would put visitors' data in the logs.
      serializers: {
        req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info"),
    }),
  );

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  const directives = cspDirectives({ scriptSources: [], development, https });
  const securityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          ...directives,
          "script-src": development
            ? (directives["script-src"] ?? [])
            : ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
        },
      },
      strictTransportSecurity: env.NODE_ENV === "production" ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      xFrameOptions: { action: "deny" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    });
  app.use(securityHeaders);
  app.use(compression());

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });

  // better-auth reads its own bodies: mounted before any body parser.
  const authHandler = toNodeHandler(options.auth);
  app.all("/api/auth/{*splat}", (req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    res.setHeader("Cache-Control", "no-store");
    void authHandler(req, res);
  });
  // Before the forms router: its catch-all answers every other /api path with 404.
  app.use("/api", createAssistantRouter({ auth: options.auth, assistant: options.assistant }));
  app.use("/api", createRemoteSupportRouter({ auth: options.auth, sessions: options.sessions, ice: iceConfigFromEnv(env) }));
  app.use("/api", createApiRouter(options.forms));
  app.use(limitPageBody(BODY_LIMIT_BYTES));

  const loadContext = (req: express.Request, res: express.Response): RouterContextProvider => {
    const context = new RouterContextProvider();
    context.set(cspNonceContext, res.locals.cspNonce as string);
    context.set(formServicesContext, options.forms);
    context.set(requestOriginContext, { ip: req.ip ?? "inconnue" });
    return context;
  };

  let handler: RequestHandler;
  let prerendered: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  if (options.mode === "development") {
    // A connect server is an (req, res, next) middleware; Express's typings only differ in the request type.
    app.use(options.vite.middlewares as unknown as RequestHandler);
    const loadBuild = options.vite.loadBuild;
    handler = createRequestHandler({ build: loadBuild, mode: "development", getLoadContext: loadContext });
  } else {
    const clientDir = path.join(options.buildDir, "client");
    const build = (await import(path.join(options.buildDir, "server", "index.js"))) as ServerBuild;
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: "1y",
        index: false,
        redirect: false,
        fallthrough: false,
      }),
    );
    prerendered = createPrerenderedResponder(
      await loadPrerenderedPages(clientDir, { https }),
      captureHeaders(securityHeaders),
    );
    // Pre-rendered pages live at clean URLs; their files (and encodings) are not pages of their own.
    app.get(/\/index\.html(\.br|\.gz)?$/, (req, res) => {
      res.redirect(301, req.path.replace(/\/index\.html(\.br|\.gz)?$/, "") || "/");
    });
    app.use(
      express.static(clientDir, {
        index: false,
        redirect: false,
        setHeaders: (res, file) => {
          if (file.endsWith(".data")) {
            // Pre-rendered loader data (single fetch) changes with every build, like the HTML.
            res.setHeader("Content-Type", "text/x-script");
            res.setHeader("Cache-Control", HTML_CACHE_CONTROL);
          } else {
            res.setHeader("Cache-Control", PUBLIC_FILE_CACHE_CONTROL);
          }
        },
      }),
    );
    handler = createRequestHandler({ build, mode: "production", getLoadContext: loadContext });
  }
  app.all("/{*splat}", handler);

  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === "number" && error.status >= 400 && error.status < 600 ? error.status : 500;
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
          : '<!doctype html><html lang="fr"><meta charset="utf-8"><title>Erreur</title><p>Une erreur est survenue. Veuillez réessayer dans quelques instants. <a href="/">Retour à l\'accueil</a></p></html>',
      );
  };
  app.use(onError);
  if (!prerendered) return app;
  const answerPrerendered = prerendered;
  return (req, res) => {
    if (answerPrerendered(req, res)) {
      logger.debug({ method: req.method, url: req.url }, "pre-rendered page");
      return;
    }
    app(req, res);
  };
}

/** The headers a (synchronous) helmet middleware sets, captured once. */
function captureHeaders(middleware: RequestHandler): HeaderSet {
  const headers: HeaderSet = {};
  const res = {
    locals: {},
    setHeader: (name: string, value: string) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
    getHeader: (name: string) => headers[name],
  };
  middleware({ headers: {} } as express.Request, res as unknown as express.Response, () => undefined);
  return headers;
}
