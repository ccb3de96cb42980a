/**
 * Issue 18 §1: the link that lets a customer cancel or move an appointment
 * without an account, signed and expiring.
 *
 * Token = `<appointment id>.<expiry, s since epoch, base36>.<MAC>` while the
 * appointment was never moved, and `<id>.<expiry>.<link version, base36>.<MAC>`
 * after (issue 28 §9: each move raises the row's `link_version`, and a token
 * of another version is refused, so links from before a move stop working).
 * The MAC is HMAC-SHA256 over the parts before it with a key derived from the
 * server's secret (truncated to 128 bits, base64url); the three-part form
 * is exactly the one mailed before issue 28, so those links still work
 * until the first move. A token expires when the appointment starts: past
 * that, nothing can be changed online. The token is a credential: it travels
 * as the `jeton` query parameter (`/rendez-vous/gerer?jeton=…`), whose value
 * the request logger masks (`redactUrl`), and is never logged by the booking
 * service.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Length of the MAC in bytes (base64url: 22 characters). */
const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Base36 without a leading zero (one spelling per number); version 0 has no part of its own. */
const VERSION = /^[1-9a-z][0-9a-z]{0,5}$/;

/** What an authentic, unexpired token names: the appointment and the link version it was signed with. */
export type ManageLink = { id: string; version: number };

export type ManageLinks = {
  /** A token for appointment `id` at link version `version` (default 0), valid until `expiresAt`. */
  sign(id: string, expiresAt: Date, version?: number): string;
  /** The appointment and version if `token` is authentic and not expired at `now`, else null (never throws). */
  verify(token: string, now?: Date): ManageLink | null;
};

/** @param secret the server's secret (≥ 32 characters); a sub-key is derived so a booking MAC is never an auth MAC. */
export function createManageLinks(secret: string): ManageLinks {
  const key = createHmac("sha256", secret).update("atelier-informatique:booking-links:v1").digest();
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest().subarray(0, MAC_BYTES);
  return {
    sign(id, expiresAt, version = 0) {
      const expiry = Math.floor(expiresAt.getTime() / 1000).toString(36);
      const payload = version === 0 ? `${id}.${expiry}` : `${id}.${expiry}.${version.toString(36)}`;
      return `${payload}.${mac(payload).toString("base64url")}`;
    },
    verify(token, now = new Date()) {
      if (typeof token !== "string" || token.length > 130) return null;
      const parts = token.split(".");
      if (parts.length !== 3 && parts.length !== 4) return null;
      const signature = parts.pop()!;
      const [id, expiry, version] = parts as [string, string, string | undefined];
      if (!UUID.test(id) || !/^[0-9a-z]{1,10}$/.test(expiry) || !/^[\w-]{22}$/.test(signature)) return null;
      if (version !== undefined && !VERSION.test(version)) return null;
      const given = Buffer.from(signature, "base64url");
      const expected = mac(parts.join("."));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      // 22 characters carry 132 bits for 128: only the canonical spelling is the link we sent.
      if (given.toString("base64url") !== signature) return null;
      if (parseInt(expiry, 36) * 1000 <= now.getTime()) return null;
      return { id, version: version === undefined ? 0 : parseInt(version, 36) };
    },
  };
}
