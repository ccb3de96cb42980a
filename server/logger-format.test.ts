/**
 * Issue 16 §3: readable log lines in a terminal, JSON otherwise or when asked
 * (`LOG_FORMAT`), with the same redaction either way.
 */
import { describe, expect, it } from "vitest";
import { createLogger, logFormat, REDACTED } from "./logger.ts";

function collect() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

describe("logFormat", () => {
  it.each([
    ["auto", true, "pretty"],
    ["auto", false, "json"],
    [undefined, true, "pretty"],
    [undefined, false, "json"],
    ["json", true, "json"],
    ["pretty", false, "pretty"],
  ] as const)("LOG_FORMAT=%s, terminal %s → %s", (setting, isTTY, expected) => {
    expect(logFormat(setting, isTTY)).toBe(expected);
  });
});

describe("createLogger's output", () => {
  it("is one readable line per entry in a terminal, still without personal data", () => {
    const { lines, stream } = collect();
    const logger = createLogger({ LOG_LEVEL: "info", LOG_FORMAT: "auto" }, stream, true);
    logger.info({ port: 8080, email: "lea@exemple.fr" }, "Serveur prêt");
    const text = lines.join("");
    expect(text).toMatch(/INFO.*Serveur prêt/);
    expect(text).toContain("8080");
    expect(text).toContain(REDACTED);
    expect(text).not.toContain("lea@exemple.fr");
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it("is JSON when standard output is not a terminal, or when LOG_FORMAT=json", () => {
    for (const [format, isTTY] of [
      ["auto", false],
      ["json", true],
    ] as const) {
      const { lines, stream } = collect();
      createLogger({ LOG_LEVEL: "info", LOG_FORMAT: format }, stream, isTTY).info({ email: "x@y.fr" }, "prêt");
      expect(JSON.parse(lines.join(""))).toMatchObject({ level: 30, msg: "prêt", email: REDACTED });
    }
  });
});
