/**
 * Issue 29 "Figures" (docs/decisions/023): what a server sends for each desktop build in `build/desktop/`
 * once it adds its own address (`server/download-splice.ts`): bytes on the wire per encoding (brotli,
 * gzip, raw), beside the build's precompressed copy alone; the time of the first `GET /api/downloads`
 * (the served SHA-256 of every build, computed once) and of a later one; a whole raw download streamed,
 * with the process's resident memory after it. Builds nothing: run `npm run build:desktop` first.
 *
 * Usage: `node bench/desktop-address.ts [PUBLIC_URL]`
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { createDownloadsRouter, type DesktopManifest } from "#server/downloads.ts";
import { root } from "./lib.ts";

const dir = path.join(root, "build", "desktop");
const publicUrl = process.argv[2] ?? "https://atelier.example";
const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as DesktopManifest;
const mb = (bytes: number | null | undefined) => (bytes == null ? "–" : `${(bytes / 1e6).toFixed(2)} MB`);

const app = express().use(createDownloadsRouter({ dir, publicUrl }));
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let started = performance.now();
const list = (await (await fetch(`${base}/api/downloads`)).json()) as { downloads: { fileName: string }[] };
console.log(
  `first GET /api/downloads (${list.downloads.length} builds): ${(performance.now() - started).toFixed(0)} ms`,
);
started = performance.now();
await fetch(`${base}/api/downloads`);
console.log(`next GET /api/downloads: ${(performance.now() - started).toFixed(1)} ms\n`);

console.log("| build | address | br sent (copy alone) | gzip sent (copy alone) | raw sent (build alone) |");
console.log("|---|---|---|---|---|");
for (const entry of manifest.files) {
  const sizes: Record<string, number | null> = {};
  for (const encoding of ["br", "gzip", "identity"]) {
    const response = await fetch(`${base}/telechargements/${entry.fileName}`, {
      method: "HEAD",
      headers: { "Accept-Encoding": encoding },
    });
    sizes[encoding] = Number(response.headers.get("content-length"));
  }
  console.log(
    `| ${entry.target} | ${entry.address.method} | ${mb(sizes.br)} (${mb(entry.transfer.br)}) | ` +
      `${mb(sizes.gzip)} (${mb(entry.transfer.gzip)}) | ${mb(sizes.identity)} (${mb(entry.bytes)}) |`,
  );
}

const first = manifest.files[0];
if (first) {
  started = performance.now();
  const response = await fetch(`${base}/telechargements/${first.fileName}`, {
    headers: { "Accept-Encoding": "identity" },
  });
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  const rss = (process.memoryUsage().rss / 1e6).toFixed(0);
  console.log(
    `\n${first.target} raw GET: ${mb(bytes)} in ${(performance.now() - started).toFixed(0)} ms, RSS after: ${rss} MB`,
  );
}
server.close();
