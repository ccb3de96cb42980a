/**
 * Issue 27, the Windows clipboard's logic over a fake table of the user32/kernel32 functions (global memory
 * blocks as buffers): the order of the calls, the `CF_UNICODETEXT` bytes (UTF-16LE with its NUL), memory freed
 * when Windows did not take it, the clipboard always closed, retries while another program holds it, and the
 * French errors. The koffi binding itself needs Windows; its signatures are checked by `bindWindowsClipboard`'s
 * build on every Windows download.
 */
import { describe, expect, it } from "vitest";
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES } from "#app/remote-support/clipboard-protocol.ts";
import { CLIPBOARD_OS_MESSAGES } from "./clipboard.ts";
import {
  CF_UNICODETEXT,
  createWindowsClipboard,
  GMEM_MOVEABLE,
  OPEN_ATTEMPTS,
  type WinClipboardApi,
} from "./windows.ts";

const TEXT = "Œuvre « test » — 123 €";

type Block = { bytes: Buffer; locked: number; freed: boolean };

/** A fake clipboard: `data` is what it holds (a block of UTF-16LE), `busyFor` how many opens fail first. */
function fakeWindows(options: { busyFor?: number; refuseSet?: boolean } = {}) {
  const calls: string[] = [];
  let busy = options.busyFor ?? 0;
  let open = false;
  const state = { data: null as Block | null, calls, blocks: [] as Block[] };
  const api: WinClipboardApi = {
    OpenClipboard(owner) {
      calls.push(`OpenClipboard(${String(owner)})`);
      if (busy > 0) return (busy--, false);
      return (open = true);
    },
    CloseClipboard() {
      calls.push("CloseClipboard");
      expect(open).toBe(true);
      open = false;
      return true;
    },
    EmptyClipboard() {
      calls.push("EmptyClipboard");
      state.data = null;
      return open;
    },
    GetClipboardData(format) {
      calls.push(`GetClipboardData(${format})`);
      return format === CF_UNICODETEXT ? state.data : null;
    },
    SetClipboardData(format, memory) {
      calls.push(`SetClipboardData(${format})`);
      if (options.refuseSet) return null;
      expect((memory as Block).locked).toBe(0);
      state.data = memory as Block;
      return memory;
    },
    GlobalAlloc(flags, bytes) {
      calls.push(`GlobalAlloc(${flags}, ${bytes})`);
      const block = { bytes: Buffer.alloc(bytes), locked: 0, freed: false };
      state.blocks.push(block);
      return block;
    },
    GlobalLock(memory) {
      calls.push("GlobalLock");
      (memory as Block).locked += 1;
      return { block: memory };
    },
    GlobalUnlock(memory) {
      calls.push("GlobalUnlock");
      (memory as Block).locked -= 1;
      return true;
    },
    GlobalSize: (memory) => (memory as Block).bytes.length,
    GlobalFree(memory) {
      calls.push("GlobalFree");
      (memory as Block).freed = true;
      return null;
    },
    copyTo(pointer, bytes) {
      const block = (pointer as { block: Block }).block;
      expect(bytes.length).toBeLessThanOrEqual(block.bytes.length);
      bytes.copy(block.bytes);
    },
    copyFrom(pointer, bytes) {
      (pointer as { block: Block }).block.bytes.copy(bytes, 0, 0, bytes.length);
    },
  };
  return { api, state };
}

const noWait = async () => {};

describe("the Windows clipboard", () => {
  it("writes the text as CF_UNICODETEXT in movable memory that Windows then owns", async () => {
    const { api, state } = fakeWindows();
    await createWindowsClipboard(api, noWait).writeText(TEXT);
    const bytes = (TEXT.length + 1) * 2;
    expect(state.calls).toEqual([
      "OpenClipboard(null)",
      "EmptyClipboard",
      `GlobalAlloc(${GMEM_MOVEABLE}, ${bytes})`,
      "GlobalLock",
      "GlobalUnlock",
      `SetClipboardData(${CF_UNICODETEXT})`,
      "CloseClipboard",
    ]);
    expect(state.data!.bytes.toString("utf16le")).toBe(`${TEXT}\0`);
    expect(state.data!.freed).toBe(false);
  });

  it("reads it back up to the NUL, and what another program copied", async () => {
    const { api, state } = fakeWindows();
    const clipboard = createWindowsClipboard(api, noWait);
    await clipboard.writeText(`${TEXT}\r\nligne 2`);
    expect(await clipboard.readText()).toBe(`${TEXT}\r\nligne 2`);
    // A block larger than its text, as some programs allocate.
    state.data = {
      bytes: Buffer.concat([Buffer.from("Bonjour\0", "utf16le"), Buffer.alloc(64, 0x41)]),
      locked: 0,
      freed: false,
    };
    expect(await clipboard.readText()).toBe("Bonjour");
    expect(state.calls.filter((call) => call === "CloseClipboard")).toHaveLength(3);
  });

  it("says empty, too large or busy in French, and still closes the clipboard", async () => {
    const { api, state } = fakeWindows();
    const clipboard = createWindowsClipboard(api, noWait);
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.empty);
    state.data = { bytes: Buffer.alloc(2 * CLIPBOARD_MAX_BYTES + 4, 0x41), locked: 0, freed: false };
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.tooLarge);
    // Within the UTF-16 bound but more than 64 KB of UTF-8 ("é" is 2 bytes in both).
    state.data = {
      bytes: Buffer.from(`${"é".repeat(CLIPBOARD_MAX_BYTES / 2)}a\0`, "utf16le"),
      locked: 0,
      freed: false,
    };
    await expect(clipboard.readText()).rejects.toThrow(CLIPBOARD_MESSAGES.tooLarge);
    const opens = state.calls.filter((call) => call.startsWith("OpenClipboard")).length;
    expect(state.calls.filter((call) => call === "CloseClipboard")).toHaveLength(opens);
  });

  it("tries again while another program holds the clipboard, then gives up", async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    const held = fakeWindows({ busyFor: 3 });
    await createWindowsClipboard(held.api, wait).writeText(TEXT);
    expect(waits).toHaveLength(3);
    expect(held.state.data!.bytes.toString("utf16le")).toBe(`${TEXT}\0`);

    const stuck = fakeWindows({ busyFor: 1_000 });
    await expect(createWindowsClipboard(stuck.api, wait).writeText(TEXT)).rejects.toThrow(CLIPBOARD_OS_MESSAGES.busy);
    expect(stuck.state.calls.filter((call) => call.startsWith("OpenClipboard"))).toHaveLength(OPEN_ATTEMPTS);
  });

  it("frees the memory Windows refused", async () => {
    const { api, state } = fakeWindows({ refuseSet: true });
    await expect(createWindowsClipboard(api, noWait).writeText(TEXT)).rejects.toThrow(CLIPBOARD_OS_MESSAGES.busy);
    expect(state.blocks[0]!.freed).toBe(true);
    expect(state.calls.at(-1)).toBe("CloseClipboard");
  });
});
