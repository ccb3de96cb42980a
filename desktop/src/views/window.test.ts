/**
 * A window process that cannot open (issue 36 §3): its reason reaches the app, and the app is not stopped
 * for it (it falls back to another interface). Under Wine the process exited before its last line was read,
 * which stopped the app as if the customer had closed the window.
 */
import { describe, expect, it } from "vitest";
import { openWindow } from "./window.ts";

/** A window process played by Node: prints `lines` (JSON events), then exits with `code`. */
function fakeWindow(lines: readonly object[], code: number): string[] {
  const script = `${lines.map((line) => `process.stdout.write(${JSON.stringify(`${JSON.stringify(line)}\n`)});`).join("")}process.exit(${code});`;
  return [process.execPath, "-e", script];
}

describe("a window that cannot open", () => {
  it("says why (its last line is read before its exit counts) and does not stop the app", async () => {
    let closed = 0;
    const reason = "WebView2 n'est pas installé : …";
    const outcome = await openWindow({
      command: fakeWindow([{ type: "unavailable", reason }], 3),
      env: process.env,
      hooks: { onClose: () => closed++ },
      stderr: { write: () => true },
    });
    expect(outcome).toEqual({ unavailable: reason });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(0);
  });

  it("a process that dies at start without a word: « fermée au démarrage », and still no stop", async () => {
    let closed = 0;
    const outcome = await openWindow({
      command: fakeWindow([], 1),
      env: process.env,
      hooks: { onClose: () => closed++ },
      stderr: { write: () => true },
    });
    expect(outcome).toEqual({ unavailable: expect.stringMatching(/^La fenêtre s'est fermée au démarrage/u) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(0);
  });

  it("a window that cannot even start (spawn refuses the command): a reason, not an error that ends the app", async () => {
    const outcome = await openWindow({
      command: [`${process.execPath}\0`, "-e", ""],
      env: process.env,
      hooks: { onClose: () => {} },
      stderr: { write: () => true },
    });
    expect(outcome).toEqual({ unavailable: expect.stringMatching(/^La fenêtre n'a pas pu démarrer \(/u) });
  });
});
