import { afterEach, describe, expect, it } from "vitest";
import { formatDateTime, formatTime } from "./format.ts";

const zoneBefore = process.env.TZ;
afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

describe("dates of the remote-support screens", () => {
  // The server's HTML and the browser's hydration must write the same text, wherever each of them runs.
  it.each(["UTC", "America/New_York", "Pacific/Auckland"])("show the shop's wall clock on a machine in %s", (zone) => {
    process.env.TZ = zone;
    expect(formatDateTime("2026-01-15T12:00:05Z")).toBe("15/01/2026 13:00:05");
    expect(formatDateTime("2026-07-15T12:00:05Z")).toBe("15/07/2026 14:00:05");
    expect(formatTime("2026-07-15T21:30:00Z")).toBe("23:30");
  });

  it("show a dash for a missing date", () => {
    expect(formatDateTime(null)).toBe("—");
  });
});
