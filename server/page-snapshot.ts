/**
 * The public pages kept on disk between two starts (issue 30 §2, docs/decisions/030): while a restarted
 * server loads its modules and waits for PostgreSQL (about a second), `server/early-listener.ts` answers
 * them as the last process rendered them, instead of refusing the connection.
 *
 * One file a page in `DATA_DIR/pages/`: a JSON line (the page's path, ETag, CSP, headers, `edition` and
 * the three bodies' sizes in bytes), then its identity, gzip and brotli bodies. A page is written each time
 * the page cache (`page-cache.ts`) stores a version of it, so a change of settings or prices reaches the
 * disk as soon as its page is rendered again.
 *
 * `edition` ties a file to what it was rendered from: the site's build and the server's bundle (their
 * hashes), and the configuration (every variable of `Env`, hashed). A file of another edition is never
 * answered: a new build, address or setting waits for this process's own render.
 *
 * Nothing personal is kept: these pages are rendered without any visitor (`app.ts`'s `publicPages`).
 * A file is replaced by its next version and removed with the data folder.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { CachedPage } from "./page-cache.ts";
import type { HeaderSet } from "./prerendered.ts";

/** A page read back from disk: its bodies and every header it was answered with (security headers included). */
export type SnapshotPage = CachedPage & { headers: HeaderSet };

export type PageSnapshot = {
  /** Writes `page` for `pagePath` (in the background; a failure is logged at warn, never thrown). */
  save(pagePath: string, page: CachedPage, headers: HeaderSet): void;
  /**
   * The page of this edition, or undefined (none on disk, another edition, an unreadable file).
   * Synchronous: it answers while the server's modules load, and a module's loading holds the thread for
   * up to 0.3 s, so a read left to the thread pool would wait for it (measured).
   */
  read(pagePath: string): SnapshotPage | undefined;
  /** Resolves once every write asked so far is done (at shutdown: the next start finds the last versions). */
  flush(): Promise<void>;
};

type Header = {
  path: string;
  edition: string;
  etag: string;
  csp: string;
  styleHashes: string[];
  headers: HeaderSet;
  sizes: [number, number, number];
};

/**
 * Variables that never reach a page: a restart on another port keeps its pages (the address, `PUBLIC_URL`,
 * is kept, and it holds the port when it is derived from it).
 */
const OPERATIONAL = new Set(["PORT", "HOST", "LOG_LEVEL", "LOG_FORMAT", "SHUTDOWN_TIMEOUT_MS"]);

const SECRET = /SECRET|KEY|PASSWORD|TOKEN|DATABASE_URL|SMTP_URL/;

/**
 * What the pages on disk must have been rendered from: SHA-256 (hex) of the build's two hashes
 * (`build/.build-hash`, `build/.server-hash`; empty when missing) and of `config` (the parsed environment,
 * `OPERATIONAL` variables left out).
 */
export function snapshotEdition(buildDir: string, config: Record<string, unknown>): string {
  const hash = createHash("sha256");
  for (const name of [".build-hash", ".server-hash"]) {
    const file = path.join(buildDir, name);
    hash.update(existsSync(file) ? readFileSync(file, "utf8").trim() : "").update("\n");
  }
  const kept = Object.entries(config)
    .filter(([name]) => !OPERATIONAL.has(name))
    // A secret (or a URL that may carry a password) counts by its presence only: no digest of it on disk.
    .map(([name, value]) => [name, SECRET.test(name) ? value !== undefined && value !== "" : value] as const);
  return hash.update(JSON.stringify(kept.sort(([a], [b]) => a.localeCompare(b)))).digest("hex");
}

/** The file of `pagePath` in `folder`. */
function fileOf(folder: string, pagePath: string): string {
  return path.join(folder, `${createHash("sha256").update(pagePath).digest("hex").slice(0, 32)}.page`);
}

/**
 * The pages of `edition` in `folder` (created on the first write).
 */
export function createPageSnapshot(options: { folder: string; edition: string; logger: Logger }): PageSnapshot {
  const { folder, edition, logger } = options;
  // One write at a time per page, the last version winning: a slow disk never reorders two versions.
  const writing = new Map<string, Promise<void>>();
  let folderMade: Promise<unknown> | undefined;

  async function write(pagePath: string, page: CachedPage, headers: HeaderSet): Promise<void> {
    folderMade ??= mkdir(folder, { recursive: true, mode: 0o700 });
    await folderMade;
    const header: Header = {
      path: pagePath,
      edition,
      etag: page.etag,
      csp: page.csp,
      styleHashes: page.styleHashes,
      headers,
      sizes: [page.identity.length, page.gzip.length, page.br.length],
    };
    const file = fileOf(folder, pagePath);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(
      temporary,
      Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), page.identity, page.gzip, page.br]),
    );
    // Renamed into place: a reader (the next start) finds the old file or the new one, never half of one.
    await rename(temporary, file);
  }

  return {
    save(pagePath, page, headers) {
      const previous = writing.get(pagePath) ?? Promise.resolve();
      const next = previous
        .then(() => write(pagePath, page, headers))
        .catch((error: unknown) => {
          logger.warn({ path: pagePath, err: error }, "page non gardée sur disque pour le prochain démarrage");
        });
      writing.set(pagePath, next);
      void next.then(() => {
        if (writing.get(pagePath) === next) writing.delete(pagePath);
      });
    },
    async flush() {
      await Promise.all(writing.values());
    },
    read(pagePath) {
      let data: Buffer;
      try {
        data = readFileSync(fileOf(folder, pagePath));
      } catch {
        return undefined;
      }
      try {
        const end = data.indexOf(0x0a);
        const header = JSON.parse(data.subarray(0, end).toString("utf8")) as Header;
        if (header.path !== pagePath || header.edition !== edition) return undefined;
        const [identity, gzip, br] = header.sizes;
        if (end + 1 + identity + gzip + br !== data.length) return undefined;
        const at = end + 1;
        return {
          identity: data.subarray(at, at + identity),
          gzip: data.subarray(at + identity, at + identity + gzip),
          br: data.subarray(at + identity + gzip),
          etag: header.etag,
          csp: header.csp,
          styleHashes: header.styleHashes,
          headers: header.headers,
        };
      } catch {
        // A damaged file is as good as none: the page waits for this process's render.
        return undefined;
      }
    },
  };
}

/**
 * Feeds `snapshot` from the page cache's `onStore`. The pages' shared headers (helmet's) are known only once
 * the home page is rendered (its stylesheet's hash is in them), so versions stored before `setHeaders` wait
 * for it. Paths matching `skip` (pages that depend on more than the build and the settings) are not kept.
 */
export function snapshotFeeder(snapshot: PageSnapshot | undefined, skip: RegExp) {
  let headers: HeaderSet | undefined;
  const waiting = new Map<string, CachedPage>();
  return {
    onStore(pagePath: string, page: CachedPage) {
      if (!snapshot || skip.test(pagePath)) return;
      if (headers) snapshot.save(pagePath, page, headers);
      else waiting.set(pagePath, page);
    },
    setHeaders(shared: HeaderSet) {
      headers = shared;
      for (const [pagePath, page] of waiting) snapshot?.save(pagePath, page, shared);
      waiting.clear();
    },
  };
}
