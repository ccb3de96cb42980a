/**
 * The entry's own behaviour (`start.ts`), run as a customer's terminal runs it: its output closing under
 * it (the terminal window closed, EIO; the reader gone, EPIPE) must not end the app before it has left
 * the session properly.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES } from "#app/remote-support/device-protocol.ts";
import { type FakeServer, STATE, startFakeServer } from "../test/fake-server.ts";

let server: FakeServer;

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => {
  await server?.close();
});

describe("the app whose output closed", () => {
  it("goes on with the session and ends it normally (exit 0), instead of crashing on the next line", async () => {
    server.codes.add("ACDE3479");
    const child = spawn(process.execPath, ["desktop/src/main.ts", "--server", server.url, "--code", "ACDE-3479"], {
      env: { ...process.env, DISPLAY: "", WAYLAND_DISPLAY: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await server.waitFor(() => server.statuses.length === 1, 15_000);
    // Nobody reads what the app prints from now on: its next screen fails with EPIPE.
    child.stdout.destroy();
    child.stderr.destroy();
    server.socket()!.emit("device:state", STATE);
    server.socket()!.emit("device:state", { ...STATE, technicianName: "Sophie" });
    // Still there: it answers the session's end as usual (a crash on EPIPE exits 1).
    server.socket()!.emit("device:ended", DEVICE_MESSAGES.sessionEnded);
    expect(await exited).toBe(0);
  }, 30_000);
});
