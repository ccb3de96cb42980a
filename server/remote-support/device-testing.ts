/**
 * Test helpers of the desktop app's server side (issue 15), shared by
 * `device-api.test.ts` and `device-realtime.test.ts`: a session joined by a
 * technician, a pairing done as the app does it, a session the app starts
 * itself (issue 26), and the app's Socket.IO client on `DEVICE_NAMESPACE`.
 * Test code only (imports supertest).
 */
import request from "supertest";
import { io as connect, type Socket } from "socket.io-client";
import {
  DEVICE_NAMESPACE,
  type DevicePairBody,
  type DevicePairResponse,
  type ServerToDeviceEvents,
  type DeviceToServerEvents,
} from "#app/remote-support/device-protocol.ts";
import type { RemoteSupportServer, Role, TestAccount } from "#tests/support/remote-support.ts";

export type DeviceClient = Socket<ServerToDeviceEvents, DeviceToServerEvents>;

/** What the app sends besides the code: one 1280 × 720 screen, injection possible. */
export const PAIR_FIELDS = {
  computerName: "PC-SALON",
  platform: "linux",
  arch: "x64",
  appVersion: "1.0.0",
  injection: { ok: true },
  screens: [{ id: "0", x: 0, y: 0, width: 1280, height: 720, scale: 1, primary: true }],
} satisfies Omit<DevicePairBody, "pairingCode">;

/** Requests as a signed-in account (supertest, no Origin: same-site requests without Origin pass the check). */
export function asAccount(server: RemoteSupportServer, accounts: Record<Role, TestAccount>) {
  return (role: Role, method: "get" | "post", path: string) =>
    request(server.url)[method](path).set("Cookie", accounts[role].cookie);
}

/** A session of `customer`, joined by `technician` when given. @returns its code. */
export async function openSession(
  as: ReturnType<typeof asAccount>,
  customer: Role = "customer",
  technician: Role | null = "technician",
): Promise<string> {
  const created = await as(customer, "post", "/api/sessions").send({});
  const code = created.body.session.code as string;
  if (technician) {
    const joined = await as(technician, "post", "/api/sessions/join").send({ code });
    if (joined.status !== 200) throw new Error(`join ${joined.status}`);
  }
  return code;
}

/** A pairing code for session `code`, asked by `customer`. */
export async function pairingCode(
  as: ReturnType<typeof asAccount>,
  code: string,
  customer: Role = "customer",
): Promise<string> {
  const response = await as(customer, "post", `/api/sessions/${code}/pairing`);
  if (response.status !== 201) throw new Error(`pairing ${response.status}`);
  return response.body.pairingCode as string;
}

/** `POST /api/device/pair` as the app (no cookie, no Origin). */
export function pair(server: RemoteSupportServer, pairingCodeValue: string, fields: object = PAIR_FIELDS) {
  return request(server.url)
    .post("/api/device/pair")
    .send({ ...fields, pairingCode: pairingCodeValue });
}

/**
 * Issue 26: `POST /api/device/sessions` as the app run with no argument (no account, no cookie, no Origin);
 * `fields` default to `PAIR_FIELDS` with the name « Marie ».
 */
export function startAppSession(
  server: RemoteSupportServer,
  fields: object = { ...PAIR_FIELDS, customerName: "Marie" },
) {
  return request(server.url).post("/api/device/sessions").send(fields);
}

/** Pairs the app with session `code`. @returns the app's token. */
export async function pairDevice(
  server: RemoteSupportServer,
  as: ReturnType<typeof asAccount>,
  code: string,
  customer: Role = "customer",
): Promise<string> {
  const response = await pair(server, await pairingCode(as, code, customer));
  if (response.status !== 201) throw new Error(`pair ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as DevicePairResponse).deviceToken;
}

/** The app's connection to `DEVICE_NAMESPACE`; rejects with the server's refusal. */
export function connectDevice(url: string, token: string): Promise<DeviceClient> {
  const socket: DeviceClient = connect(url + DEVICE_NAMESPACE, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    auth: { token },
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Resolves with the arguments of the app's next `event`, or rejects after `timeoutMs`. */
export function nextDeviceEvent<E extends keyof ServerToDeviceEvents>(
  socket: DeviceClient,
  event: E,
  timeoutMs = 5_000,
): Promise<Parameters<ServerToDeviceEvents[E]>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pas d'événement ${event} en ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, ((...args: Parameters<ServerToDeviceEvents[E]>) => {
      clearTimeout(timer);
      resolve(args);
    }) as never);
  });
}

/** Collects every `event` the app receives from now on. */
export function recordDevice<E extends keyof ServerToDeviceEvents>(
  socket: DeviceClient,
  event: E,
): Parameters<ServerToDeviceEvents[E]>[] {
  const received: Parameters<ServerToDeviceEvents[E]>[] = [];
  socket.on(event, ((...args: Parameters<ServerToDeviceEvents[E]>) => received.push(args)) as never);
  return received;
}
