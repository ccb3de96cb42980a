/**
 * The macOS clipboard (issue 27): `/usr/bin/pbcopy` and `/usr/bin/pbpaste`, present on every macOS, run with
 * `LANG=en_US.UTF-8` so that they read and write UTF-8 (with another locale they may fall back to MacRoman).
 * No permission is needed. Chosen over the Objective-C runtime (`NSPasteboard` through koffi): two processes a
 * transfer cost nothing at this pace (a few a minute), and they keep this module free of Objective-C calls.
 * The text stays on the clipboard after the app exits.
 */
import { spawn } from "node:child_process";
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES } from "#app/remote-support/clipboard-protocol.ts";
import { CLIPBOARD_OS_MESSAGES, ClipboardError, type Clipboard } from "./base.ts";

export const PBCOPY = "/usr/bin/pbcopy";
export const PBPASTE = "/usr/bin/pbpaste";
/** The environment of both tools: UTF-8 whatever the customer's locale. */
export const UTF8_ENV = { LANG: "en_US.UTF-8", LC_ALL: "en_US.UTF-8" } as const;

/** What a run gave: the exit code (null: killed or not started), stdout up to `maxBytes`, and whether it went past. */
export type RunResult = { code: number | null; stdout: Buffer; truncated: boolean };
/** Runs `command` with `input` on stdin (absent: none), keeping at most `maxBytes` of stdout. */
export type Run = (command: string, args: string[], input: Buffer | null, maxBytes: number) => Promise<RunResult>;

/** The real runner: `spawn` with `UTF8_ENV`; past `maxBytes` the child is killed. Never rejects. */
export const runTool: Run = (command, args, input, maxBytes) =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const child = spawn(command, args, { env: { ...process.env, ...UTF8_ENV }, stdio: ["pipe", "pipe", "ignore"] });
    child.on("error", () => resolve({ code: null, stdout: Buffer.alloc(0), truncated }));
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        truncated = true;
        child.kill();
      } else chunks.push(chunk);
    });
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(chunks), truncated }));
    child.stdin.on("error", () => {});
    child.stdin.end(input ?? undefined);
  });

/** The clipboard over `run` (tests pass a fake). */
export function createMacClipboard(run: Run = runTool): Clipboard {
  return {
    async writeText(text) {
      const result = await run(PBCOPY, [], Buffer.from(text, "utf8"), 0);
      if (result.code !== 0) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
    },
    async readText() {
      // `-Prefer txt`: the plain text of what was copied (not RTF or a file's name).
      const result = await run(PBPASTE, ["-Prefer", "txt"], null, CLIPBOARD_MAX_BYTES);
      if (result.truncated) throw new ClipboardError(CLIPBOARD_MESSAGES.tooLarge);
      if (result.code !== 0) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
      const text = result.stdout.toString("utf8");
      if (!text) throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
      return text;
    },
    close() {
      // Nothing held between uses.
    },
  };
}
