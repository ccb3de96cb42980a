/**
 * The per-request CSP nonce, passed from Express (`server/app.ts`) to
 * `entry.server.tsx` through the router context.
 *
 * The server bundle and `server/app.ts` each load their own copy of this
 * module, so the context object is shared through a global symbol: both
 * copies must hold the very same key.
 */
import { createContext, type RouterContext } from "react-router";

const KEY = Symbol.for("atelier-informatique.csp-nonce");
const registry = globalThis as typeof globalThis & { [KEY]?: RouterContext<string | undefined> };

export const cspNonceContext: RouterContext<string | undefined> = (registry[KEY] ??= createContext<string | undefined>(
  undefined,
));
