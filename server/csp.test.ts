import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cspDirectives, inlineScriptHashes, inlineStyleHashes, serializeCsp } from "./csp.ts";

describe("CSP", () => {
  it("hashes every inline script, and ignores external and empty ones", () => {
    const body = "window.x = 1;";
    const html = `<script src="/a.js"></script><script>${body}</script><script type="module">import("/b.js")</script><script></script>`;
    const expected = `'sha256-${createHash("sha256").update(body).digest("base64")}'`;
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(2);
    expect(hashes).toContain(expected);
  });

  it("forbids framing and plugins, and only upgrades requests on https", () => {
    const http = cspDirectives({ scriptSources: ["'nonce-x'"], development: false, https: false });
    expect(http["frame-ancestors"]).toEqual(["'none'"]);
    expect(http["object-src"]).toEqual(["'none'"]);
    expect(http["script-src"]).toEqual(["'self'", "'nonce-x'"]);
    expect(http).not.toHaveProperty("upgrade-insecure-requests");
    const https = cspDirectives({ scriptSources: [], development: false, https: true });
    expect(serializeCsp(https)).toContain("upgrade-insecure-requests");
  });

  it("allows inline styles by hash only, except under Vite in development (issue 13 §12c)", () => {
    const css = "body{color:red}";
    const [hash] = inlineStyleHashes(`<style>${css}</style><style></style><p style="color:blue">`);
    expect(inlineStyleHashes(`<style>${css}</style><style></style>`)).toEqual([hash]);
    expect(hash).toBe(`'sha256-${createHash("sha256").update(css).digest("base64")}'`);
    const production = cspDirectives({ scriptSources: [], styleSources: [hash!], development: false, https: false });
    expect(production["style-src"]).toEqual(["'self'", hash]);
    expect(cspDirectives({ scriptSources: [], development: true, https: false })["style-src"]).toContain(
      "'unsafe-inline'",
    );
  });
});
