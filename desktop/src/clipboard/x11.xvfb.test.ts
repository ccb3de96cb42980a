/**
 * The X11 clipboard against a real X server (issue 27): Xvfb, and `xclip` (Debian package `xclip`, installed by
 * `.ci/run`) as the other program, reading what the app wrote and writing what the app reads. Fails, never
 * skips, when Xvfb or xclip is missing.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES } from "#app/remote-support/clipboard-protocol.ts";
import { startXvfb, type Xvfb } from "../../test/xvfb.ts";
import type { Clipboard } from "./clipboard.ts";
import { openX11Clipboard } from "./x11.ts";

const XCLIP = "/usr/bin/xclip";
const TEXT = "Œuvre « test » — 123 €";

let xvfb: Xvfb;
let clipboard: Clipboard;

/** Runs xclip on the test display; resolves with its output once it exits (`-o`), or at once when it keeps serving (`-i`). */
function xclip(args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(XCLIP, ["-selection", "clipboard", ...args], {
      env: { ...process.env, DISPLAY: xvfb.display, LANG: "C.UTF-8" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`xclip ${code}: ${errors}`))));
    // EPIPE when xclip exits before reading its input (`-o` reads none): its exit code says what happened.
    child.stdin.on("error", () => {});
    child.stdin.end(input ?? "");
  });
}

/** Makes xclip own the clipboard with `text` (it forks and serves it in the background) and waits until it does. */
async function copyWithXclip(text: string): Promise<void> {
  await xclip(["-i"], text);
  await expect.poll(() => xclip(["-o", "-target", "TARGETS"]).catch(() => "")).toContain("UTF8_STRING");
}

beforeAll(async () => {
  if (!existsSync(XCLIP))
    throw new Error(`${XCLIP} est introuvable : installez le paquet xclip (apt-get install xclip).`);
  xvfb = await startXvfb(320, 240);
  clipboard = await openX11Clipboard(xvfb.display);
});

afterAll(async () => {
  clipboard?.close();
  await xvfb?.stop();
});

describe("the X11 clipboard under Xvfb", () => {
  it("says the clipboard is empty while nobody owns it", async () => {
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.empty);
  });

  it("owns the clipboard with the text: another program pastes it exactly, and sees the targets offered", async () => {
    await clipboard.writeText(TEXT);
    expect(await xclip(["-o", "-target", "UTF8_STRING"])).toBe(TEXT);
    expect(await xclip(["-o", "-target", "text/plain;charset=utf-8"])).toBe(TEXT);
    expect((await xclip(["-o", "-target", "TARGETS"])).split("\n")).toEqual(
      expect.arrayContaining(["TARGETS", "UTF8_STRING", "text/plain;charset=utf-8"]),
    );
    // A target it does not offer is refused, not answered with something else.
    await expect(xclip(["-o", "-target", "image/png"])).rejects.toThrow();
    // Its own text, read back without a round trip.
    expect(await clipboard.readText()).toBe(TEXT);
  });

  it("reads what another program copied, and loses the selection to it", async () => {
    await clipboard.writeText("ancien texte");
    await copyWithXclip(`${TEXT}\nDeuxième ligne\tavec tabulation`);
    expect(await clipboard.readText()).toBe(`${TEXT}\nDeuxième ligne\tavec tabulation`);
  });

  it("writes and reads 64 KB whole, and says a larger copied text is too large", async () => {
    const largest = `${"€".repeat((CLIPBOARD_MAX_BYTES - 1) / 3)}a`;
    await clipboard.writeText(largest);
    expect(await xclip(["-o", "-target", "UTF8_STRING"])).toBe(largest);
    await copyWithXclip(largest);
    expect(await clipboard.readText()).toBe(largest);
    await copyWithXclip(`${largest}b`);
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.tooLarge);
  });
});
