/**
 * Issue 27, the macOS clipboard over a fake `pbcopy` / `pbpaste` runner: UTF-8 both ways, the tools' paths and
 * arguments, and the French errors (empty, too large, failed); `createClipboard`'s choice per system, opened
 * lazily.
 */
import { describe, expect, it } from "vitest";
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES } from "#app/remote-support/clipboard-protocol.ts";
import { CLIPBOARD_OS_MESSAGES, createClipboard } from "./clipboard.ts";
import { createMacClipboard, PBCOPY, PBPASTE, type Run, UTF8_ENV } from "./macos.ts";

const TEXT = "Œuvre « test » — 123 €";

/** A pasteboard in memory behind fake tools; `fail` makes them exit 1. */
function fakeTools(options: { fail?: boolean } = {}) {
  const state = { board: Buffer.alloc(0), runs: [] as { command: string; args: string[]; maxBytes: number }[] };
  const run: Run = async (command, args, input, maxBytes) => {
    state.runs.push({ command, args, maxBytes });
    if (options.fail) return { code: 1, stdout: Buffer.alloc(0), truncated: false };
    if (command === PBCOPY) {
      state.board = Buffer.from(input ?? Buffer.alloc(0));
      return { code: 0, stdout: Buffer.alloc(0), truncated: false };
    }
    const truncated = state.board.length > maxBytes;
    return { code: truncated ? null : 0, stdout: state.board.subarray(0, maxBytes), truncated };
  };
  return { run, state };
}

describe("the macOS clipboard", () => {
  it("writes with pbcopy and reads with pbpaste, in UTF-8", async () => {
    const { run, state } = fakeTools();
    const clipboard = createMacClipboard(run);
    await clipboard.writeText(TEXT);
    expect(state.board.toString("utf8")).toBe(TEXT);
    expect(await clipboard.readText()).toBe(TEXT);
    expect(state.runs).toEqual([
      { command: "/usr/bin/pbcopy", args: [], maxBytes: 0 },
      { command: "/usr/bin/pbpaste", args: ["-Prefer", "txt"], maxBytes: CLIPBOARD_MAX_BYTES },
    ]);
    expect(PBPASTE).toBe("/usr/bin/pbpaste");
    expect(UTF8_ENV.LANG).toBe("en_US.UTF-8");
  });

  it("says empty, too large or failed in French", async () => {
    const { run, state } = fakeTools();
    const clipboard = createMacClipboard(run);
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.empty);
    state.board = Buffer.from("a".repeat(CLIPBOARD_MAX_BYTES + 1));
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.tooLarge);
    state.board = Buffer.from("a".repeat(CLIPBOARD_MAX_BYTES));
    expect(await clipboard.readText()).toHaveLength(CLIPBOARD_MAX_BYTES);
    const broken = createMacClipboard(fakeTools({ fail: true }).run);
    await expect(broken.writeText(TEXT)).rejects.toThrow(CLIPBOARD_OS_MESSAGES.busy);
    await expect(broken.readText()).rejects.toThrow(CLIPBOARD_OS_MESSAGES.busy);
  });
});

describe("createClipboard", () => {
  it("opens nothing until used, and says in French when the system has no clipboard support", async () => {
    const clipboard = createClipboard("aix");
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_OS_MESSAGES.unsupported);
    await expect(clipboard.writeText(TEXT)).rejects.toThrow(CLIPBOARD_OS_MESSAGES.unsupported);
    clipboard.close();
  });

  it("on Linux without an X display, says so in French at first use", async () => {
    const display = process.env.DISPLAY;
    process.env.DISPLAY = ":9999";
    try {
      await expect(createClipboard("linux").readText()).rejects.toThrow(/Aucun affichage X11/u);
    } finally {
      if (display === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = display;
    }
  });
});
