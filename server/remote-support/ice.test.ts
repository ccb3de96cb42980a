/**
 * ICE servers (issue 6): coturn REST credentials against a vector computed
 * independently (`echo -n "1767225600:user-123" | openssl dgst -sha1 -hmac
 * "un-secret-turn-de-test" -binary | base64`), expiry arithmetic, and the
 * configuration read from the environment.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "#server/env.ts";
import { iceConfigFromEnv, iceServersFor, turnCredentials } from "./ice.ts";

describe("turnCredentials", () => {
  it("matches the coturn REST scheme (openssl vector)", () => {
    expect(turnCredentials("un-secret-turn-de-test", "user-123", 1_767_225_600)).toEqual({
      username: "1767225600:user-123",
      credential: "pKcL6Gylnx04zhwBDM4XNJXNbTM=",
    });
  });
});

describe("iceServersFor", () => {
  it("gives STUN only, without expiry, when TURN is not configured", () => {
    const config = iceConfigFromEnv(parseEnv({ ICE_STUN_URLS: "stun:stun.exemple.fr:3478, stuns:stun2.exemple.fr" }));
    expect(iceServersFor(config, "u1")).toEqual({
      iceServers: [{ urls: ["stun:stun.exemple.fr:3478", "stuns:stun2.exemple.fr"] }],
      expiresAt: null,
    });
  });

  it("defaults to public STUN servers and allows none at all", () => {
    expect(iceConfigFromEnv(parseEnv({})).stunUrls.every((url) => url.startsWith("stun:"))).toBe(true);
    expect(iceConfigFromEnv(parseEnv({})).stunUrls.length).toBeGreaterThan(0);
    expect(iceServersFor(iceConfigFromEnv(parseEnv({ ICE_STUN_URLS: "none" })), "u1")).toEqual({
      iceServers: [],
      expiresAt: null,
    });
  });

  it("adds TURN with credentials expiring TURN_TTL_S after now", () => {
    const env = parseEnv({
      ICE_STUN_URLS: "none",
      TURN_URLS: "turn:turn.exemple.fr:3478?transport=udp,turns:turn.exemple.fr:5349",
      TURN_SECRET: "un-secret-turn-de-test",
      TURN_TTL_S: "600",
    });
    const now = Date.UTC(2026, 0, 1, 0, 0, 0, 400) - 600_000;
    const result = iceServersFor(iceConfigFromEnv(env), "user-123", now);
    expect(result).toEqual({
      iceServers: [
        {
          urls: ["turn:turn.exemple.fr:3478?transport=udp", "turns:turn.exemple.fr:5349"],
          username: "1767225600:user-123",
          credential: "pKcL6Gylnx04zhwBDM4XNJXNbTM=",
        },
      ],
      expiresAt: "2026-01-01T00:00:00.000Z",
    });
    expect(JSON.stringify(result)).not.toContain("un-secret-turn-de-test");
  });
});

describe("ICE configuration", () => {
  it("refuses TURN without its secret, and URLs of the wrong scheme, in French", () => {
    expect(() => parseEnv({ TURN_URLS: "turn:turn.exemple.fr" })).toThrow(ConfigError);
    expect(() => parseEnv({ TURN_URLS: "turn:turn.exemple.fr" })).toThrow(
      /TURN_SECRET.*requis quand TURN_URLS est défini/s,
    );
    expect(() => parseEnv({ ICE_STUN_URLS: "https://stun.exemple.fr" })).toThrow(/ICE_STUN_URLS.*stun:/s);
    expect(() => parseEnv({ TURN_URLS: "stun:x", TURN_SECRET: "un-secret-turn-de-test" })).toThrow(/TURN_URLS.*turn:/s);
  });
});
