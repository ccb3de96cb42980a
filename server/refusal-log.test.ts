/**
 * Issue 28: refusals a visitor can repeat at will are written one by one
 * at debug level only, and summarised once a minute at warn level.
 */
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createRefusalLog,
  MAX_REFUSAL_REASONS,
  OTHER_REASONS,
  REFUSAL_SUMMARY_MS,
  sharedRefusalLog,
} from "./refusal-log.ts";

type Line = { level: number; msg: string; reason?: string; refusals?: Record<string, number> };

describe("refusal log", () => {
  afterEach(() => void vi.useRealTimers());

  it("writes 500 refusals as debug lines and one warning a minute with the count per reason", () => {
    vi.useFakeTimers();
    const lines: Line[] = [];
    const log = createRefusalLog(
      pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }),
      "essais refusés",
    );
    for (let index = 0; index < 500; index++) log(index % 5 === 0 ? "limite" : "inconnu", { ipHash: "abc" });
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines.filter((line) => line.level === 20)).toHaveLength(500);
    vi.advanceTimersByTime(REFUSAL_SUMMARY_MS);
    const warnings = lines.filter((line) => line.level >= 40);
    expect(warnings).toMatchObject([{ msg: "essais refusés", refusals: { limite: 100, inconnu: 400 } }]);
    // A quiet minute writes nothing; the next refusal starts a new count.
    vi.advanceTimersByTime(REFUSAL_SUMMARY_MS);
    log("limite");
    vi.advanceTimersByTime(REFUSAL_SUMMARY_MS);
    expect(lines.filter((line) => line.level >= 40).map((line) => line.refusals)).toEqual([
      { limite: 100, inconnu: 400 },
      { limite: 1 },
    ]);
  });

  it("is one log per logger and message for every connection, so many floods still write one line", () => {
    vi.useFakeTimers();
    const lines: Line[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
    const connections = Array.from({ length: 100 }, () => sharedRefusalLog(logger, "budget dépassé"));
    for (const log of connections) for (let index = 0; index < 10; index++) log("ack");
    sharedRefusalLog(logger, "autre chose")("select");
    vi.advanceTimersByTime(REFUSAL_SUMMARY_MS);
    expect(lines.map((line) => [line.msg, line.refusals])).toEqual([
      ["budget dépassé", { ack: 1000 }],
      ["autre chose", { select: 1 }],
    ]);
  });

  it("issue 37 §5: holds at most a fixed number of reasons; the rest are counted as « autres »", () => {
    vi.useFakeTimers();
    const lines: Line[] = [];
    const log = createRefusalLog(
      pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }),
      "budget dépassé",
    );
    for (let index = 0; index < 1_000; index++) log(`nom-${index}`);
    vi.advanceTimersByTime(REFUSAL_SUMMARY_MS);
    const [summary] = lines.filter((line) => line.level >= 40);
    expect(Object.keys(summary!.refusals!)).toHaveLength(MAX_REFUSAL_REASONS + 1);
    expect(summary!.refusals![OTHER_REASONS]).toBe(1_000 - MAX_REFUSAL_REASONS);
  });
});
