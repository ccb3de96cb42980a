/**
 * Where the remote-support API lives (issue 14: "paths declared once beside
 * the protocol"), shared by the browser (`client/api.ts`) and the server's
 * Express routes (`server/remote-support/api.ts`). Pure: no imports.
 *
 * `API_ROUTES` holds each endpoint's Express pattern, relative to the mount
 * point `API_BASE`; `API_PATHS` is derived from it, key by key: the full
 * path a browser requests, a plain string, or for a pattern with `:code` a
 * function of the session code (percent-encoded, as typed codes may hold
 * anything).
 */

/** The router's mount point (`app.use("/api", …)` in `server/app.ts`). */
export const API_BASE = "/api";

/** Express patterns, relative to `API_BASE`; see the table in `server/remote-support/api.ts`. */
export const API_ROUTES = {
  me: "/me",
  sessions: "/sessions",
  mine: "/sessions/mine",
  active: "/sessions/active",
  history: "/sessions/history",
  join: "/sessions/join",
  disconnect: "/sessions/:code/disconnect",
  report: "/sessions/:code/report",
  verify: "/reports/verify",
  iceServers: "/sessions/:code/ice-servers",
  events: "/sessions/:code/events",
  /** Issue 18 §4: a session asked from the assistant, and the conversation attached to it. */
  fromAssistant: "/sessions/from-assistant",
  conversation: "/sessions/:code/conversation",
  requests: "/requests",
  /** Issue 27, the waiting queue (`queue.ts`): the list, « Prendre en charge », a waiting customer's place. */
  queue: "/sessions/queue",
  claim: "/sessions/:code/claim",
  place: "/sessions/:code/place",
  /** Issue 15, the desktop app (`device-protocol.ts`). */
  pairing: "/sessions/:code/pairing",
  consent: "/sessions/:code/consent",
  surface: "/sessions/:code/surface",
  device: "/sessions/:code/device",
  /** Issue 38 §4: what the app said of the computer (`facts-protocol.ts`), for the session's technician. */
  facts: "/sessions/:code/facts",
  devicePair: "/device/pair",
  /** Issue 26: a session started by the app itself, without an account. */
  deviceSessions: "/device/sessions",
  /** Issue 36 §4: the app relaunched as administrator rejoins its session with a single-use ticket. */
  deviceResume: "/device/resume",
  /** The app's downloads: `GET /api/downloads` lists them (`DownloadsResponse`). */
  downloads: "/downloads",
  /** better-auth's own routes (`/api/auth/{*splat}`, mounted in `server/app.ts`). */
  auth: "/auth",
} as const;

type PathOf<Pattern extends string> = Pattern extends `${string}:code${string}` ? (code: string) => string : string;
export type ApiPaths = { [Key in keyof typeof API_ROUTES]: PathOf<(typeof API_ROUTES)[Key]> };

function pathOf(pattern: string): string | ((code: string) => string) {
  if (!pattern.includes(":code")) return API_BASE + pattern;
  return (code: string) => API_BASE + pattern.replace(":code", encodeURIComponent(code));
}

/** Browser-side paths: `API_PATHS.history` is "/api/sessions/history", `API_PATHS.report("ACDE34")` "/api/sessions/ACDE34/report". */
export const API_PATHS = Object.fromEntries(
  Object.entries(API_ROUTES).map(([key, pattern]) => [key, pathOf(pattern)]),
) as ApiPaths;

/** Where the reset link of the password mail lands (better-auth redirects there with `?token=`). */
export const RESET_PASSWORD_PATH = "/soft-assist/nouveau-mot-de-passe";
