/**
 * Content-Security-Policy directives (issue 2), one definition for both kinds
 * of documents: pre-rendered HTML (inline scripts allowed by their SHA-256
 * hashes, computed when the file is loaded) and server-rendered HTML (a
 * per-request nonce).
 */
import { createHash } from "node:crypto";

export type CspOptions = {
  /** e.g. ["'nonce-abc'"] or ["'sha256-…'"] */
  scriptSources: string[];
  /**
   * The documents' own inline `<style>` elements, as `'sha256-…'` (issue 13 §12c; the stylesheet is
   * inlined, decision record 002). Outside development no `'unsafe-inline'`: style attributes in markup
   * are refused (React's `style={{…}}` in the browser sets properties through the CSSOM, which CSP allows).
   */
  styleSources?: string[];
  /** Vite's dev server needs inline scripts, eval and its websocket. */
  development: boolean;
  /** Only an https site may ask browsers to upgrade sub-requests. */
  https: boolean;
};

/** Directives in helmet's shape (`{ "script-src": [...] }`). */
export function cspDirectives({
  scriptSources,
  styleSources = [],
  development,
  https,
}: CspOptions): Record<string, string[]> {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "base-uri": ["'self'"],
    "script-src": development ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : ["'self'", ...scriptSources],
    // Vite injects <style> elements in development.
    "style-src": development ? ["'self'", "'unsafe-inline'"] : ["'self'", ...styleSources],
    "img-src": ["'self'", "data:", "blob:"],
    "media-src": ["'self'", "blob:"],
    "font-src": ["'self'"],
    "connect-src": development ? ["'self'", "ws:", "wss:"] : ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "object-src": ["'none'"],
    "worker-src": ["'self'", "blob:"],
  };
  if (https) directives["upgrade-insecure-requests"] = [];
  return directives;
}

/** Serialises directives into a header value. */
export function serializeCsp(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join("; ");
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

function hashesOf(html: string, element: RegExp): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(element)) {
    const body = match[1] ?? "";
    if (body.trim() === "") continue;
    hashes.add(sourceHash(body));
  }
  return [...hashes];
}

/** The `'sha256-…'` source allowing one inline script whose text is `source`, byte for byte. */
export function sourceHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source, "utf8").digest("base64")}'`;
}

/** `'sha256-…'` sources for every inline `<script>` of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  return hashesOf(html, INLINE_SCRIPT);
}

/** `'sha256-…'` sources for every `<style>` element of an HTML document (issue 13 §12c). */
export function inlineStyleHashes(html: string): string[] {
  return hashesOf(html, INLINE_STYLE);
}
