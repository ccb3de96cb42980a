/** The route modules' view of the environment (issue 14): only PUBLIC_URL, parsed like `server/env.ts` does. */
import { describe, expect, it } from "vitest";
import { ConfigError, parsePublicEnv } from "./env.server.ts";

describe("parsePublicEnv", () => {
  it("exposes only the public subset to the browser", () => {
    expect(
      parsePublicEnv({ PUBLIC_URL: "https://a.fr", DATA_DIR: "/secret/place", OPENAI_API_KEY: "sk-secret" }),
    ).toEqual({
      PUBLIC_URL: "https://a.fr",
    });
  });

  it("defaults PUBLIC_URL from HOST and PORT, empty values counting as unset", () => {
    expect(parsePublicEnv({ PORT: "8080", PUBLIC_URL: "" })).toEqual({ PUBLIC_URL: "http://localhost:8080" });
    expect(parsePublicEnv({ PORT: "4000", HOST: "192.168.1.20" })).toEqual({ PUBLIC_URL: "http://192.168.1.20:4000" });
  });

  it("refuses a bad PUBLIC_URL, naming it, and ignores the server's variables", () => {
    expect(() => parsePublicEnv({ PUBLIC_URL: "ftp://exemple.fr" })).toThrow(ConfigError);
    expect(() => parsePublicEnv({ PUBLIC_URL: "ftp://exemple.fr" })).toThrow(/PUBLIC_URL/);
    expect(parsePublicEnv({ SMTP_URL: "pas-une-url" })).toEqual({ PUBLIC_URL: "http://localhost:3000" });
  });
});
