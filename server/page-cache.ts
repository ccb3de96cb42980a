/**
 * The public pages, rendered by the server at run time and kept in memory (issue 29, « One build for any
 * address », and the shop's settings and prices followed without a rebuild; docs/decisions/025, which
 * replaces build-time pre-rendering of decisions 001/013).
 *
 * A page is rendered the first time it is asked for (React Router's handler, in this process, at
 * `PUBLIC_URL`), then answered from memory like the files of decision 001: identity, gzip and brotli
 * bodies, an ETag, a CSP allowing exactly its inline scripts. Its first encodings are quick ones; the
 * smallest (brotli 11) replace them in the background, off the visitor's wait. `refresh()` renders again the pages already
 * in memory after a change (settings, prices), one after the other to leave the CPU to visitors; each
 * old page is served until its new version is ready, so nobody waits for a change.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { compressBoth, compressQuick } from "./compression.ts";
import { cspDirectives, inlineScriptHashes, inlineStyleHashes, serializeCsp } from "./csp.ts";

/** One page in memory, as `createPrerenderedResponder` answers it. */
export type CachedPage = {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  csp: string;
  /** `'sha256-…'` of the page's `<style>` elements (the inlined stylesheet), also allowed in its CSP. */
  styleHashes: string[];
};

/** Renders `path` (e.g. "/services/iphone-repair") to its document; a status other than 200 is not kept. */
export type PageRenderer = (path: string) => Promise<{ status: number; html: string }>;

export type PageCache = {
  /** The paths this cache answers (GET/HEAD), e.g. every content and catalogue page. */
  readonly paths: ReadonlySet<string>;
  /** The page in memory, or undefined (not rendered yet, or not one of `paths`). Synchronous: the fast path. */
  get(path: string): CachedPage | undefined;
  /**
   * The page, rendered now when not in memory (concurrent calls share one render).
   * @returns undefined when `path` is not one of `paths` or its render did not answer 200.
   */
  load(path: string): Promise<CachedPage | undefined>;
  /**
   * Renders again the pages in memory among `paths` (all by default), one at a time; resolves when done.
   * Pages not in memory yet are simply forgotten: they will be rendered fresh when asked for.
   */
  refresh(paths?: Iterable<string>): Promise<void>;
};

/**
 * Builds a `CachedPage` from a rendered document: encodings, ETag and its own CSP. `quick`: encodings made
 * in a few ms, a little larger (brotli 5, gzip 6), for a visitor waiting on a page's first render.
 */
export async function cachedPage(html: string, options: { https: boolean; quick?: boolean }): Promise<CachedPage> {
  const identity = Buffer.from(html, "utf8");
  const styleHashes = inlineStyleHashes(html);
  return {
    identity,
    ...(await (options.quick ? compressQuick(identity) : compressBoth(identity))),
    etag: `"${createHash("sha1").update(identity).digest("base64url")}"`,
    csp: serializeCsp(
      cspDirectives({
        scriptSources: inlineScriptHashes(html),
        styleSources: styleHashes,
        development: false,
        https: options.https,
      }),
    ),
    styleHashes,
  };
}

/**
 * A cache of the pages at `paths`, rendered by `render`.
 * A render that fails or answers another status is logged (path only) and not kept: the request then
 * goes on to the server's handler, which answers it as any other page.
 */
export function createPageCache(options: {
  paths: Iterable<string>;
  render: PageRenderer;
  https: boolean;
  logger: Logger;
  /** Told of every version stored in memory (its first encodings, then its smallest): `page-snapshot.ts`. */
  onStore?: (path: string, page: CachedPage) => void;
}): PageCache {
  const paths = new Set(options.paths);
  const pages = new Map<string, CachedPage>();
  const pending = new Map<string, Promise<CachedPage | undefined>>();
  // Bumped by refresh(): a render started before a change must not overwrite a newer page.
  const generation = new Map<string, number>();
  let queue: Promise<void> = Promise.resolve();

  async function renderNow(path: string): Promise<CachedPage | undefined> {
    const started = generation.get(path) ?? 0;
    try {
      const { status, html } = await options.render(path);
      if (status !== 200) {
        options.logger.warn({ path, status }, "page not kept in memory");
        return undefined;
      }
      const page = await cachedPage(html, { https: options.https, quick: true });
      if ((generation.get(path) ?? 0) !== started) return page;
      pages.set(path, page);
      options.onStore?.(path, page);
      // The smallest encodings (brotli 11, ~70 ms a page) after the answer, the same document and ETag.
      void compressBoth(page.identity).then(
        (smallest) => {
          if (pages.get(path) !== page) return;
          const smaller = { ...page, ...smallest };
          pages.set(path, smaller);
          options.onStore?.(path, smaller);
        },
        () => undefined,
      );
      return page;
    } catch (error) {
      options.logger.error({ path, err: error }, "page render failed");
      return undefined;
    }
  }

  function load(path: string): Promise<CachedPage | undefined> {
    if (!paths.has(path)) return Promise.resolve(undefined);
    const page = pages.get(path);
    if (page) return Promise.resolve(page);
    let running = pending.get(path);
    if (!running) {
      const render = renderNow(path).finally(() => {
        if (pending.get(path) === render) pending.delete(path);
      });
      pending.set(path, render);
      running = render;
    }
    return running;
  }

  return {
    paths,
    get: (path) => pages.get(path),
    load,
    refresh(only = paths) {
      const targets = [...only].filter((path) => paths.has(path));
      for (const path of targets) {
        generation.set(path, (generation.get(path) ?? 0) + 1);
        // Not in memory: nothing to keep serving; the next visitor gets a fresh render.
        if (!pages.has(path)) pending.delete(path);
      }
      const inMemory = targets.filter((path) => pages.has(path));
      queue = queue.then(async () => {
        for (const path of inMemory) await renderNow(path);
      });
      return queue;
    },
  };
}
