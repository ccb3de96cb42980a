/**
 * Server rendering of documents that are not pre-rendered (the signed-in
 * area). Same as React Router's default entry, plus the request's CSP nonce
 * on every inline script, and one change (issue 16): the document is sent
 * once every lazy screen in it is rendered (`onAllReady`), for every
 * visitor, not only bots. Streamed, a lazy screen would arrive as a fallback
 * swapped by an inline script: a jump once shown, and nothing at all without
 * JavaScript. Its data are read by the loader before rendering anyway. The
 * document goes out without its modulepreload links, as pre-rendered pages do
 * (docs/decisions/002).
 */
import { PassThrough } from "node:stream";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { cspNonceContext } from "#app/utils/csp-nonce.ts";
import { stripModulepreload } from "../scripts/strip-modulepreload.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  let nonce: string | undefined;
  try {
    nonce = loadContext.get(cspNonceContext);
  } catch {
    nonce = undefined; // pre-rendering at build time has no request nonce
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const readyOption: keyof RenderToPipeableStreamOptions = "onAllReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        // React outlines a large finished boundary (fallback first, content swapped by a script) to show
        // progress; the whole document is sent at once here, so every boundary stays inline.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // The whole document is ready: it is sent at once, without its modulepreload links. The first view is in
          // the HTML, so its first paint need not wait for the JavaScript (docs/decisions/002, now for these pages
          // too: Lighthouse FCP 2.9 s with them on /soft-assist).
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            const html = stripModulepreload(Buffer.concat(chunks).toString("utf8"));
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          });
          body.on("error", reject);
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
