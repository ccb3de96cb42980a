import { describe, expect, it } from "vitest";
import { ConfigError, getPublicEnv, parseEnv } from "./env.server.ts";

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

  it("exposes only the public subset to the browser", () => {
    const env = parseEnv({ PUBLIC_URL: "https://a.fr", DATA_DIR: "/secret/place" });
    expect(getPublicEnv(env)).toEqual({ PUBLIC_URL: "https://a.fr" });
  });
});
