/**
 * Pairing over TLS (issue 15): the runtime's certificate checks apply (an
 * unknown CA is refused with a French explanation), and the real entry file
 * pairs with a server whose CA is trusted through NODE_EXTRA_CA_CERTS.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, Injection } from "#app/remote-support/device-protocol.ts";
import { type FakeServer, STATE, startFakeServer } from "../test/fake-server.ts";
import { createTestCa, type TestCa } from "../test/tls.ts";
import { ACCESSIBILITY_REASON } from "./input/macos.ts";
import { SAS_REASON_WINDOWS } from "./input/windows.ts";
import { WAYLAND_REASON } from "./input/x11.ts";
import { networkErrorMessage, pairBody, pairDevice, PairingError } from "./pairing.ts";

let ca: TestCa;
let server: FakeServer;

beforeAll(async () => {
  ca = createTestCa();
  server = await startFakeServer({ key: ca.key, cert: ca.cert });
});
afterAll(async () => {
  await server?.close();
  if (ca) rmSync(ca.dir, { recursive: true, force: true });
});

const screens = [{ id: "0", x: 0, y: 0, width: 640, height: 480, scale: 1, primary: true }];

describe("pairing over TLS", () => {
  it("refuses a certificate from an unknown authority, in French", async () => {
    const body = pairBody("ACDE3479", { injection: { ok: true }, screens }, "linux");
    const error = await pairDevice(server.url, body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PairingError);
    expect((error as Error).message).toMatch(/certificat de sécurité du serveur .* n'est pas valide/);
    expect(server.pairBodies).toHaveLength(0);
  });

  it("main.ts pairs and follows the session when the CA is trusted via NODE_EXTRA_CA_CERTS", async () => {
    server.codes.add("ACDE3479");
    const child = spawn(process.execPath, ["desktop/src/main.ts", "--server", server.url, "--code", "ACDE-3479"], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: ca.caFile, DISPLAY: "", WAYLAND_DISPLAY: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await server.waitFor(() => server.statuses.length === 1, 15_000);
    // No X display in the child: it pairs anyway and says why control is impossible.
    expect(server.statuses[0]!.injection).toMatchObject({ ok: false, reason: expect.stringMatching(/DISPLAY/) });
    server.socket()!.emit("device:state", STATE);
    await server.waitFor(() => out.includes("Julien, technicien de l'atelier, est connecté."));
    expect(out).toContain("Prise de contrôle impossible");
    server.socket()!.emit("device:ended", DEVICE_MESSAGES.sessionEnded);
    expect(await exited).toBe(0);
    expect(out).toContain(DEVICE_MESSAGES.sessionEnded);
  }, 30_000);
});

describe("French messages", () => {
  it("name certificate, timeout and network failures", () => {
    const tls = Object.assign(new TypeError("fetch failed"), { cause: { code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" } });
    expect(networkErrorMessage("https://a.example", tls)).toMatch(/certificat/);
    expect(networkErrorMessage("https://a.example", new DOMException("x", "TimeoutError"))).toMatch(/ne répond pas/);
    expect(networkErrorMessage("https://a.example", new TypeError("fetch failed"))).toMatch(/Impossible de joindre/);
  });

  it("fit the protocol's Injection reason (≤ 500 characters)", () => {
    for (const reason of [WAYLAND_REASON, ACCESSIBILITY_REASON, SAS_REASON_WINDOWS]) {
      expect(Injection.safeParse({ ok: false, reason }).success).toBe(true);
    }
  });
});
