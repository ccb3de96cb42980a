import { describe, expect, it } from "vitest";
import { parsePublicEnv } from "#app/utils/env.server.ts";
import { ConfigError, parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      PUBLIC_URL: "http://localhost:3000",
      NODE_ENV: "production",
    });
  });

  it("derives the default PUBLIC_URL from PORT and a non-wildcard HOST", () => {
    expect(parseEnv({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ PORT: "8080", HOST: "::" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(parseEnv({ PORT: "4000", HOST: "192.168.1.20" }).PUBLIC_URL).toBe("http://192.168.1.20:4000");
    expect(parseEnv({ PORT: "4000", HOST: "::1" }).PUBLIC_URL).toBe("http://[::1]:4000");
    expect(parseEnv({ PORT: "80", HOST: "atelier.local" }).PUBLIC_URL).toBe("http://atelier.local");
    expect(parseEnv({ PORT: "8080", PUBLIC_URL: "https://www.atelier.fr" }).PUBLIC_URL).toBe("https://www.atelier.fr");
  });

  it("chooses the embedded PostgreSQL by default and PGlite under NODE_ENV=test, unless told (issue 16 §2)", () => {
    expect(parseEnv({}).EMBEDDED_DATABASE).toBe("postgres");
    expect(parseEnv({ NODE_ENV: "test" }).EMBEDDED_DATABASE).toBe("pglite");
    expect(parseEnv({ EMBEDDED_DATABASE: "pglite" }).EMBEDDED_DATABASE).toBe("pglite");
    expect(parseEnv({ NODE_ENV: "test", EMBEDDED_DATABASE: "postgres" }).EMBEDDED_DATABASE).toBe("postgres");
  });

  it("writes logs as the terminal allows by default: LOG_FORMAT auto (issue 16 §3)", () => {
    expect(parseEnv({}).LOG_FORMAT).toBe("auto");
    expect(parseEnv({ LOG_FORMAT: "json" }).LOG_FORMAT).toBe("json");
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ PORT: "", HOST: "" })).toMatchObject({ PORT: 3000, HOST: "0.0.0.0" });
  });

  it("reads and normalises given values", () => {
    const env = parseEnv({ PORT: "8080", HOST: "127.0.0.1", PUBLIC_URL: "https://www.atelier.fr/" });
    expect(env.PORT).toBe(8080);
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.PUBLIC_URL).toBe("https://www.atelier.fr");
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "pas-une-url"],
    ["PUBLIC_URL", "ftp://exemple.fr"],
    ["LOG_LEVEL", "bavard"],
    ["NODE_ENV", "prod"],
    ["EMBEDDED_DATABASE", "sqlite"],
    ["LOG_FORMAT", "couleur"],
  ])("rejects %s=%s with a message naming the variable", (variable, value) => {
    try {
      parseEnv({ [variable]: value });
      expect.unreachable("parseEnv should have thrown");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.map((i) => i.variable)).toEqual([variable]);
      expect((error as Error).message).toContain(variable);
    }
  });

  it("gives the same PUBLIC_URL as the route modules' parser (app/utils/env.server.ts)", () => {
    for (const source of [{}, { PORT: "8080", HOST: "::1" }, { PUBLIC_URL: "https://www.atelier.fr/" }]) {
      expect(parsePublicEnv(source)).toEqual({ PUBLIC_URL: parseEnv(source).PUBLIC_URL });
    }
  });
});

describe("TRUST_PROXY (issue 13 §1)", () => {
  it("takes Express's own forms: false by default, a hop count, or the proxies' addresses", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toEqual(["loopback"]);
    expect(parseEnv({ TRUST_PROXY: " 192.0.2.10, 10.0.0.0/8,fd00::/8 , ::1,uniquelocal" }).TRUST_PROXY).toEqual([
      "192.0.2.10",
      "10.0.0.0/8",
      "fd00::/8",
      "::1",
      "uniquelocal",
    ]);
  });

  it("refuses true, saying why and what to write instead", () => {
    const error = (() => {
      try {
        parseEnv({ TRUST_PROXY: "true" });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.variable)).toEqual(["TRUST_PROXY"]);
    const message = (error as ConfigError).message;
    expect(message).toContain("X-Forwarded-For");
    expect(message).toContain("loopback");
    expect(message).toContain("l'adresse du proxy");
  });

  /** The issues `parseEnv` throws for `TRUST_PROXY=value` (fails the test if it does not throw). */
  const trustProxyRefusal = (value: string) => {
    try {
      parseEnv({ TRUST_PROXY: value });
    } catch (error) {
      return (error as ConfigError).issues;
    }
    return expect.unreachable("parseEnv should have thrown");
  };
  const refusedWith = (text: string) => [{ variable: "TRUST_PROXY", message: expect.stringContaining(text) }];

  // Issue 28 §12: values that trust every visitor as a proxy, as `true` did.
  it.each(["999", "4", "0.0.0.0/0", "::/0", "loopback, 1.0.0.0/7", "::ffff:0:0/96", "::ffff:0.0.0.0/100", "fc00::/6"])(
    "refuses %s, which trusts the whole Internet, in French",
    (value) => expect(trustProxyRefusal(value)).toEqual(refusedWith("chaque visiteur écrit lui-même")),
  );

  it("still takes the widest private networks and up to 3 hops", () => {
    expect(parseEnv({ TRUST_PROXY: "3" }).TRUST_PROXY).toBe(3);
    expect(parseEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "10.0.0.0/8,fc00::/7,::ffff:10.0.0.0/104" }).TRUST_PROXY).toEqual([
      "10.0.0.0/8",
      "fc00::/7",
      "::ffff:10.0.0.0/104",
    ]);
  });

  it.each(["oui", "10.0.0.0/33", "proxy.exemple.fr", "192.0.2.10,", "1.5", "-1", "::1/129", "10.0.0.1/8/8"])(
    "refuses %s, naming the bad item",
    (value) => expect(trustProxyRefusal(value)).toEqual(refusedWith("attendu false")),
  );
});
