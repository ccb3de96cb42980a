/**
 * Issue 38 §4, the computer's facts from the app's side, against the fake server: sent with the new session (or the
 * pairing) when the customer left « Envoyer les informations de l'ordinateur au technicien » ticked, with the
 * screens the app knows; the terminal says so and how to refuse; nothing at all is sent with `--sans-informations`
 * or when the customer unticks the box (a view answering as the window or zenity do). Never the computer's name.
 */
import { EventEmitter } from "node:events";
import os from "node:os";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DevicePairBody, DeviceSessionBody } from "#app/remote-support/device-protocol.ts";
import { recordingInjector } from "../test/fakes.ts";
import { type FakeServer, startFakeServer } from "../test/fake-server.ts";
import { type AppDeps, runApp } from "./app.ts";
import { FACTS_CONSENT_TEXTS, type FactsChoice } from "./facts/consent.ts";
import type { AppView } from "./views/view.ts";

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await server.close();
});

/** A view answering the first question with `name`, leaving the facts' box as `untick` says (window, zenity). */
function answeringView(name: string, untick: boolean): AppView & { asked: FactsChoice[] } {
  const asked: FactsChoice[] = [];
  return {
    kind: "fenetre",
    asked,
    askStart: async (facts) => {
      if (facts) asked.push({ ...facts });
      if (facts && untick) facts.send = false;
      return { text: name, field: "name" };
    },
    tell: () => {},
    draw: () => {},
    listen: () => () => {},
    say: () => {},
    fail: () => {},
    close: async () => {},
  };
}

function start(args: string[], view?: AppView) {
  const out: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const signals = new EventEmitter();
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const deps: AppDeps = {
    args,
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => recordingInjector().injector,
    columns: () => 100,
    signals: signals as unknown as AppDeps["signals"],
    platform: "linux",
    ...(view ? { openView: async () => view } : {}),
  };
  const exit = runApp(deps);
  const stop = async () => {
    signals.emit("SIGTERM");
    expect(await exit).toBe(0);
  };
  return { exit, stdin, stop, text: () => out.join("").replace(/\s+/g, " ") };
}

describe("the computer's facts sent by the app", () => {
  it("go with the new session when the box stays ticked, and the terminal says how to refuse", async () => {
    const app = start([]);
    await server.waitFor(() => app.text().includes("Votre prénom : "));
    expect(app.text()).toContain(FACTS_CONSENT_TEXTS.terminalOn.replace(/\s+/g, " "));
    expect(app.text()).toContain("--sans-informations");
    app.stdin.write("Marie\n");
    await server.waitFor(() => server.sessionBodies.length === 1);
    const body = DeviceSessionBody.parse(server.sessionBodies[0]);
    // This machine's own facts (Linux), read from /proc and /etc, with the screen the app knows.
    expect(body.facts?.screens).toEqual([{ width: 1920, height: 1080 }]);
    expect(body.facts?.os?.name).toEqual(expect.any(String));
    expect(body.facts?.memory?.total).toBeGreaterThan(0);
    expect(body.facts?.disks?.[0]?.mount).toBe("/");
    expect(JSON.stringify(body.facts)).not.toContain(os.hostname());
    // Once the session exists, the customer reads what went (its short line).
    await server.waitFor(() => app.text().includes("Informations de l'ordinateur envoyées au technicien : "));
    await app.stop();
  });

  it("are neither read nor sent with --sans-informations, and the terminal says so", async () => {
    const app = start(["--sans-informations"]);
    await server.waitFor(() => app.text().includes("Votre prénom : "));
    expect(app.text()).toContain(FACTS_CONSENT_TEXTS.terminalOff);
    app.stdin.write("Marie\n");
    await server.waitFor(() => server.sessionBodies.length === 1);
    expect(server.sessionBodies[0]).not.toHaveProperty("facts");
    await server.waitFor(() => server.statuses.length === 1);
    expect(app.text()).not.toContain("Informations de l'ordinateur envoyées");
    await app.stop();
  });

  it("are not sent when the customer unticks the box in the window or zenity", async () => {
    const view = answeringView("Marie", true);
    const app = start([], view);
    await server.waitFor(() => server.sessionBodies.length === 1);
    expect(view.asked).toEqual([{ send: true }]);
    expect(server.sessionBodies[0]).not.toHaveProperty("facts");
    await app.stop();
  });

  it("go with a pairing too, unless refused", async () => {
    server.codes.add("ACDE3479");
    const paired = start(["--code", "ACDE-3479"]);
    await server.waitFor(() => server.pairBodies.length === 1);
    expect(DevicePairBody.parse(server.pairBodies[0]).facts?.screens).toEqual([{ width: 1920, height: 1080 }]);
    await paired.stop();

    server.codes.add("ACDE3479");
    const refused = start(["--code", "ACDE-3479", "--sans-informations"]);
    await server.waitFor(() => server.pairBodies.length === 2);
    expect(server.pairBodies[1]).not.toHaveProperty("facts");
    await refused.stop();
  });
});
