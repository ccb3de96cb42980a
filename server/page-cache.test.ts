import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { pino } from "pino";
import { describe, expect, it, vi } from "vitest";
import { createPageCache, type PageRenderer } from "./page-cache.ts";

const logger = pino({ level: "silent" });

/** A renderer whose documents say how many times each path was rendered; `gate` holds renders back. */
function counting(gate?: Promise<void>) {
  const renders = new Map<string, number>();
  const render: PageRenderer = async (path) => {
    const count = (renders.get(path) ?? 0) + 1;
    renders.set(path, count);
    await gate;
    if (path === "/absente") return { status: 404, html: "introuvable" };
    return { status: 200, html: `<!doctype html><title>${path} n°${count}</title>` };
  };
  return { render, renders };
}

const text = (page: { identity: Buffer } | undefined) => page?.identity.toString("utf8");

describe("public pages rendered at run time (issue 29)", () => {
  it("renders a page once when first asked for, even by visitors arriving together", async () => {
    let open!: () => void;
    const { render, renders } = counting(new Promise<void>((resolve) => (open = resolve)));
    const cache = createPageCache({ paths: ["/", "/repair"], render, https: false, logger });
    expect(cache.get("/repair")).toBeUndefined();
    const asked = [cache.load("/repair"), cache.load("/repair"), cache.load("/repair")];
    open();
    const pages = await Promise.all(asked);
    expect(pages.map(text)).toEqual(Array(3).fill("<!doctype html><title>/repair n°1</title>"));
    expect(text(cache.get("/repair"))).toBe("<!doctype html><title>/repair n°1</title>");
    expect(renders.get("/repair")).toBe(1);
    expect(cache.get("/repair")!.gzip.length).toBeGreaterThan(0);
    expect(cache.get("/repair")!.etag).toMatch(/^".+"$/);
  });

  it("keeps only its own paths, and never a page that did not answer 200", async () => {
    const { render, renders } = counting();
    const cache = createPageCache({ paths: ["/absente"], render, https: false, logger });
    expect(await cache.load("/ailleurs")).toBeUndefined();
    expect(renders.has("/ailleurs")).toBe(false);
    expect(await cache.load("/absente")).toBeUndefined();
    expect(cache.get("/absente")).toBeUndefined();
  });

  it("after a change, renders again the pages in memory and serves the old one until the new is ready", async () => {
    const { render, renders } = counting();
    const cache = createPageCache({ paths: ["/", "/repair", "/contact"], render, https: false, logger });
    await cache.load("/");
    await cache.load("/repair");
    const before = cache.get("/");
    const refreshed = cache.refresh();
    // Still the old page while the new one renders: nobody waits for a change.
    expect(cache.get("/")).toBe(before);
    await refreshed;
    expect(text(cache.get("/"))).toBe("<!doctype html><title>/ n°2</title>");
    expect(text(cache.get("/repair"))).toBe("<!doctype html><title>/repair n°2</title>");
    expect(cache.get("/")!.etag).not.toBe(before!.etag);
    // Never asked for: not rendered by the refresh either.
    expect(renders.has("/contact")).toBe(false);
  });

  it("refreshes only the paths named", async () => {
    const { render } = counting();
    const cache = createPageCache({ paths: ["/", "/repair"], render, https: false, logger });
    await cache.load("/");
    await cache.load("/repair");
    await cache.refresh(["/repair"]);
    expect(text(cache.get("/"))).toBe("<!doctype html><title>/ n°1</title>");
    expect(text(cache.get("/repair"))).toBe("<!doctype html><title>/repair n°2</title>");
  });
});

describe("encodings of a page in memory", () => {
  it("are replaced by the smallest ones after the first answer, same document and ETag", async () => {
    const { render } = counting();
    const cache = createPageCache({ paths: ["/"], render, https: false, logger });
    const first = (await cache.load("/"))!;
    await vi.waitFor(() => expect(cache.get("/")).not.toBe(first), { timeout: 10_000 });
    const later = cache.get("/")!;
    expect(later.identity).toBe(first.identity);
    expect(later.etag).toBe(first.etag);
    expect(brotliDecompressSync(later.br).toString("utf8")).toBe(first.identity.toString("utf8"));
    expect(gunzipSync(later.gzip).toString("utf8")).toBe(first.identity.toString("utf8"));
  });
});
