/**
 * Places an account has signed in from, for the failed sign-in limit
 * (issue 28 §6, decision 020). A wrong password from a known place counts
 * against that account and place only, so strangers who exhaust the
 * per-account limit cannot lock the owner out of the devices he uses.
 *
 * A place is known to an account when either:
 * - the browser sends the known-device cookie with a tag for that account:
 *   `<device id>.<tag>[.<tag>…]`, the device id 16 random bytes and each tag
 *   `HMAC(secret, account key, device id)`, both base64url (22 characters),
 *   newest account first, at most `KNOWN_DEVICE_ACCOUNTS` tags. Checking it
 *   needs no store, so it survives restarts and holds across processes as
 *   long as the auth secret does; or
 * - its IP address signed in to that account within `KNOWN_IP_SECONDS`:
 *   a fact in the rate-limit store (`rate_limits` with PostgreSQL, shared and
 *   durable; memory with PGlite, like the counters it protects), keyed by an
 *   HMAC of account and address, so the table holds no address.
 *
 * The account key is the limit's own (`hashKey(email)`). Keys and cookie
 * values are opaque; never log them.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createRateLimiter, type RateLimitStore } from "./rate-limit.ts";

/** The cookie's name before better-auth's prefixes (`better-auth.known_device`, `__Secure-` over https). */
export const KNOWN_DEVICE_COOKIE = "known_device";
/** How long a browser stays known, seconds (renewed by every successful sign-in). */
export const KNOWN_DEVICE_SECONDS = 365 * 86_400;
/** How long an IP address stays known to an account, seconds: addresses are reassigned, so less than a device. */
export const KNOWN_IP_SECONDS = 90 * 86_400;
/** Accounts one browser is remembered for (shared family computer, a technician's own customer account). */
export const KNOWN_DEVICE_ACCOUNTS = 5;
// The memory store expires keys with setTimeout, which fires at once past 2^31 − 1 ms (24.8 days).
const MEMORY_STORE_MAX_SECONDS = 24 * 86_400;

const PART = /^[A-Za-z0-9_-]{22}$/;

export type KnownPlaces = {
  /**
   * The counter key of this account and place when the cookie (raw value, or
   * null) or the IP address (or null) signed in to the account before, else
   * null. The cookie is checked first and needs no store.
   * @throws the store's error when the database cannot be reached.
   */
  recognise(accountKey: string, cookie: string | null, ip: string | null): Promise<string | null>;
  /**
   * After a successful sign-in: remembers the IP address for the account and
   * returns the cookie value to set (the same device id, this account's tag
   * first; a new device id when the cookie was absent or malformed).
   * @throws the store's error when the database cannot be reached.
   */
  remember(accountKey: string, cookie: string | null, ip: string | null): Promise<string>;
};

/** Known places kept in `store` and signed with `secret` (the auth secret). */
export function createKnownPlaces({ store, secret }: { store: RateLimitStore; secret: string }): KnownPlaces {
  const ipSeconds = store.kind === "memory" ? Math.min(KNOWN_IP_SECONDS, MEMORY_STORE_MAX_SECONDS) : KNOWN_IP_SECONDS;
  // A "limiter" used as a set with expiry: one point per (account, address) while it is known.
  const knownIps = createRateLimiter(store, { name: "sign-in-known-ip", points: 1, durationSeconds: ipSeconds });

  // Parts joined by NUL (absent from base64url keys, addresses and ids); the first part separates the uses.
  const mac = (...parts: string[]) => createHmac("sha256", secret).update(parts.join("\0")).digest("base64url");
  const tagOf = (accountKey: string, deviceId: string) => mac("known-device-tag", accountKey, deviceId).slice(0, 22);
  const placeKey = (accountKey: string, kind: "device" | "ip", value: string) =>
    mac("known-place", accountKey, kind, value).slice(0, 32);

  return {
    async recognise(accountKey, cookie, ip) {
      const device = parseKnownDeviceCookie(cookie);
      if (device) {
        const expected = Buffer.from(tagOf(accountKey, device.id));
        if (device.tags.some((tag) => timingSafeEqual(Buffer.from(tag), expected))) {
          return placeKey(accountKey, "device", device.id);
        }
      }
      if (!ip) return null;
      const key = placeKey(accountKey, "ip", ip);
      return (await knownIps.get(key)) ? key : null;
    },

    async remember(accountKey, cookie, ip) {
      if (ip) await knownIps.set(placeKey(accountKey, "ip", ip), 1, ipSeconds);
      const device = parseKnownDeviceCookie(cookie) ?? { id: randomBytes(16).toString("base64url"), tags: [] };
      const tag = tagOf(accountKey, device.id);
      const tags = [tag, ...device.tags.filter((other) => other !== tag)].slice(0, KNOWN_DEVICE_ACCOUNTS);
      return [device.id, ...tags].join(".");
    },
  };
}

/**
 * The device id and account tags of a known-device cookie value, or null when
 * absent or malformed (wrong length, characters or number of parts): a bad
 * cookie is an unknown device, never an error.
 */
export function parseKnownDeviceCookie(value: string | null | undefined): { id: string; tags: string[] } | null {
  if (!value || value.length > 23 * (KNOWN_DEVICE_ACCOUNTS + 1)) return null;
  const [id, ...tags] = value.split(".");
  if (!id || tags.length === 0 || ![id, ...tags].every((part) => PART.test(part))) return null;
  return { id, tags };
}
