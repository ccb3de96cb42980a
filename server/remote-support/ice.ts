/**
 * ICE servers for a session's peer connection (issue 6; spec §7
 * "Peer-to-peer": "WebRTC with public STUN servers"), issued by the server
 * so TURN credentials can be short-lived and the TURN secret never leaves it.
 *
 * TURN credentials follow coturn's REST scheme (`use-auth-secret` with
 * `static-auth-secret`, draft-uberti-behave-turn-rest): username
 * `"<expiry, unix seconds>:<user id>"`, credential = base64 of
 * HMAC-SHA1(secret, username). coturn refuses them after the expiry.
 */
import { createHmac } from "node:crypto";
import type { Env } from "#server/env.ts";
import type { IceServersResponse } from "#app/remote-support/protocol.ts";

export type IceConfig = {
  /** `stun:` / `stuns:` URLs (may be empty: host candidates only, as in tests). */
  stunUrls: string[];
  /** With TURN: its URLs, the shared secret and how long credentials last, s. */
  turn: { urls: string[]; secret: string; ttlSeconds: number } | null;
};

/** `ICE_STUN_URLS`, `TURN_URLS`, `TURN_SECRET`, `TURN_TTL_S` (validated by `parseEnv`). */
export function iceConfigFromEnv(env: Env): IceConfig {
  return {
    stunUrls: env.ICE_STUN_URLS,
    turn:
      env.TURN_URLS.length > 0 && env.TURN_SECRET
        ? { urls: env.TURN_URLS, secret: env.TURN_SECRET, ttlSeconds: env.TURN_TTL_S }
        : null,
  };
}

/** coturn REST credentials for `userId`, valid until `expiresAtSeconds` (unix time, s). */
export function turnCredentials(
  secret: string,
  userId: string,
  expiresAtSeconds: number,
): { username: string; credential: string } {
  const username = `${expiresAtSeconds}:${userId}`;
  return { username, credential: createHmac("sha1", secret).update(username).digest("base64") };
}

/** The `iceServers` for one participant, TURN credentials (if any) expiring `ttlSeconds` after `nowMs`. */
export function iceServersFor(config: IceConfig, userId: string, nowMs: number = Date.now()): IceServersResponse {
  const iceServers: IceServersResponse["iceServers"] = [];
  if (config.stunUrls.length > 0) iceServers.push({ urls: config.stunUrls });
  if (!config.turn) return { iceServers, expiresAt: null };
  const expiresAtSeconds = Math.floor(nowMs / 1000) + config.turn.ttlSeconds;
  iceServers.push({ urls: config.turn.urls, ...turnCredentials(config.turn.secret, userId, expiresAtSeconds) });
  return { iceServers, expiresAt: new Date(expiresAtSeconds * 1000).toISOString() };
}
