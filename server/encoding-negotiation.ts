/**
 * Which encoding of a response made in advance a request gets (issue 39 §1): the client's q-values decide,
 * and on equal ones our order, brotli first (Chromium sends « gzip, deflate, br, zstd »: by its order alone
 * it would get gzip, ≈ 10–20 % larger). Used by the pages kept in memory and the build's assets.
 */
import type { IncomingMessage } from "node:http";
import Negotiator from "negotiator";

export type StoredEncoding = "br" | "gzip" | "identity";

/** negotiator 1.1 takes `{ preferred }`; @types/negotiator 0.6 does not know it yet. */
type PreferringNegotiator = { encodings(available: string[], options: { preferred: string[] }): string[] };

/** The best of `offered` (best first; "identity" is always possible) for `req`'s Accept-Encoding. */
export function negotiateEncoding(
  req: Pick<IncomingMessage, "headers">,
  offered: readonly Exclude<StoredEncoding, "identity">[],
): StoredEncoding {
  if (offered.length === 0 || !req.headers["accept-encoding"]) return "identity";
  const names = [...offered, "identity"];
  const negotiator = new Negotiator(req) as unknown as PreferringNegotiator;
  return (negotiator.encodings(names, { preferred: names })[0] as StoredEncoding | undefined) ?? "identity";
}
