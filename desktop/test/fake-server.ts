/**
 * A tiny stand-in for the real server (issue 15 protocol, `device-protocol.ts`):
 * `POST /api/device/pair` and the `/device` Socket.IO namespace on
 * 127.0.0.1 (free port). It records what the app sends and lets a test push
 * server events. Issue 36 §4: `device:resume-ticket` answered with `RESUME_TICKET`, `device:elevation`
 * recorded, and `POST /api/device/resume` redeeming that ticket once for `RESUMED_TOKEN`.
 * Issue 38 §1: `device:chat` from the app recorded (`chats`) and acknowledged by `chatAnswer` (default: stored as
 * the customer's line `chat-<n>`); a test pushes the technician's lines with `socket().emit("device:chat", line)`.
 * Issue 38 §2: `device:file` from the app recorded (`files`) and acknowledged by `fileAnswer` (default: accepted, an
 * offer given a new `transferId`); a test plays the technician with `socket().emit("device:file", delivery)`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Server, type Socket } from "socket.io";
import type { DeviceConsentBody, ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { ELEVATION_MESSAGES, type ElevationReport } from "#app/remote-support/elevation-protocol.ts";
import type { ChatAck, DeviceChatSend } from "#app/remote-support/chat-protocol.ts";
import type { FileAck, FileMessage } from "#app/remote-support/file-protocol.ts";
import {
  DEVICE_MESSAGES,
  DEVICE_NAMESPACE,
  DevicePairBody,
  DeviceResumeBody,
  DeviceSessionBody,
  type DeviceState,
  type DeviceStatus,
  type DeviceToServerEvents,
  type ServerToDeviceEvents,
} from "#app/remote-support/device-protocol.ts";

export type FakeServer = {
  url: string;
  /** Valid pairing codes (canonical), each usable once. */
  codes: Set<string>;
  pairBodies: unknown[];
  statuses: DeviceStatus[];
  consents: DeviceConsentBody[];
  /** Issue 26: `POST /api/device/sessions` bodies, `device:leave` count and frames received. */
  sessionBodies: unknown[];
  leaves: number;
  frames: ScreenFrame[];
  /** Issue 36 §4: tickets asked, reports of the app, and `POST /api/device/resume` bodies. */
  ticketRequests: number;
  elevationReports: ElevationReport[];
  resumeBodies: unknown[];
  /** Tickets `POST /api/device/resume` accepts, each once. */
  tickets: Set<string>;
  /** Issue 38 §1: the app's `device:chat` messages, in order. */
  chats: DeviceChatSend[];
  /** Issue 38 §1: the acknowledgement of a `device:chat` (null: none, the app's timeout applies). Replaceable. */
  chatAnswer: (message: DeviceChatSend, index: number) => ChatAck | null;
  /** Issue 38 §2: the app's `device:file` messages, in order (chunks' data as received). */
  files: FileMessage[];
  /** Issue 38 §2: the acknowledgement of a `device:file` (null: none). Replaceable. */
  fileAnswer: (message: FileMessage) => FileAck | null;
  /** Auth tokens of accepted connections, in order. */
  connections: string[];
  /** The connected app socket, if any. */
  socket(): Socket<DeviceToServerEvents, ServerToDeviceEvents> | undefined;
  waitFor<T>(read: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
};

export const TOKEN = "device-token-1";
/** Issue 36 §4: the ticket the fake server issues (43 base64url characters), and the token it redeems for. */
export const RESUME_TICKET = "T".repeat(43);
export const RESUMED_TOKEN = "device-token-2";
export const STATE: DeviceState = {
  customerName: "Marie Dupont",
  technicianName: "Julien",
  consent: true,
  controlRequested: true,
  controlActive: true,
  viewConsent: false,
};

/** Starts the fake server on 127.0.0.1, on a free port; over HTTPS with `tls` (PEM key and certificate). */
export async function startFakeServer(tls?: { key: string; cert: string }): Promise<FakeServer> {
  const pairBodies: unknown[] = [];
  const statuses: DeviceStatus[] = [];
  const consents: DeviceConsentBody[] = [];
  const sessionBodies: unknown[] = [];
  const frames: ScreenFrame[] = [];
  let leaves = 0;
  const connections: string[] = [];
  const codes = new Set(["ACDE3479"]);
  let ticketRequests = 0;
  const elevationReports: ElevationReport[] = [];
  const resumeBodies: unknown[] = [];
  const tickets = new Set<string>();
  const chats: DeviceChatSend[] = [];
  const storedLine = (message: DeviceChatSend, index: number): ChatAck => ({
    ok: true,
    line: {
      id: `chat-${index}`,
      from: "customer",
      name: null,
      text: message.text.trim(),
      at: new Date().toISOString(),
    },
  });
  let current: Socket<DeviceToServerEvents, ServerToDeviceEvents> | undefined;

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "POST" && req.url === "/api/device/sessions") {
      let raw = "";
      req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      req.on("end", () => {
        const json: unknown = JSON.parse(raw || "null");
        sessionBodies.push(json);
        const body = DeviceSessionBody.safeParse(json);
        res.writeHead(body.success ? 201 : 400, { "content-type": "application/json" }).end(
          JSON.stringify(
            body.success
              ? {
                  deviceToken: TOKEN,
                  customerName: body.data.customerName ?? "Client sans compte",
                  sessionCode: "ACDEFG",
                  expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
                }
              : { message: "Requête invalide." },
          ),
        );
      });
      return;
    }
    if (req.method === "POST" && req.url === "/api/device/resume") {
      let raw = "";
      req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      req.on("end", () => {
        const json: unknown = JSON.parse(raw || "null");
        resumeBodies.push(json);
        const body = DeviceResumeBody.safeParse(json);
        const ok = body.success && tickets.delete(body.data.ticket);
        res
          .writeHead(ok ? 201 : 400, { "content-type": "application/json" })
          .end(
            JSON.stringify(
              ok
                ? { deviceToken: RESUMED_TOKEN, customerName: "Marie Dupont", sessionCode: "ACDEFG" }
                : { message: ELEVATION_MESSAGES.ticketInvalid },
            ),
          );
      });
      return;
    }
    if (req.method !== "POST" || req.url !== "/api/device/pair") {
      res.writeHead(404).end();
      return;
    }
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const json: unknown = JSON.parse(raw || "null");
      pairBodies.push(json);
      const body = DevicePairBody.safeParse(json);
      const send = (status: number, payload: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
      if (!body.success) return send(400, { message: "Requête invalide." });
      if (!codes.delete(body.data.pairingCode)) return send(400, { message: DEVICE_MESSAGES.pairingInvalid });
      send(200, { deviceToken: TOKEN, customerName: "Marie Dupont", sessionCode: "S3SS-10N1" });
    });
  };
  const http = tls ? createHttpsServer(tls, handler) : createServer(handler);
  const io = new Server(http);
  const device = io.of(DEVICE_NAMESPACE);
  device.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (token !== TOKEN && token !== RESUMED_TOKEN) return next(new Error(DEVICE_MESSAGES.tokenInvalid));
    next();
  });
  device.on("connection", (socket: Socket<DeviceToServerEvents, ServerToDeviceEvents>) => {
    current = socket;
    connections.push(String(socket.handshake.auth.token));
    socket.on("device:status", (status) => statuses.push(status));
    socket.on("device:consent", (body) => consents.push(body));
    socket.on("device:leave", () => (leaves += 1));
    socket.on("device:frame", (frame) => frames.push(frame));
    socket.on("device:resume-ticket", (ack) => {
      ticketRequests += 1;
      tickets.add(RESUME_TICKET);
      ack({ ok: true, ticket: RESUME_TICKET, expiresAt: new Date(Date.now() + 120_000).toISOString() });
    });
    socket.on("device:elevation", (report) => elevationReports.push(report));
    socket.on("device:chat", (message, ack) => {
      chats.push(message);
      const answer = fake.chatAnswer(message, chats.length);
      if (answer) ack(answer);
    });
    socket.on("device:file", (message, ack) => {
      fake.files.push(message);
      const answer = fake.fileAnswer(message);
      if (answer) ack(answer);
    });
    socket.on("disconnect", () => {
      if (current === socket) current = undefined;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  const fake: FakeServer = {
    url: `${tls ? "https" : "http"}://127.0.0.1:${port}`,
    codes,
    pairBodies,
    statuses,
    consents,
    sessionBodies,
    get leaves() {
      return leaves;
    },
    frames,
    get ticketRequests() {
      return ticketRequests;
    },
    elevationReports,
    resumeBodies,
    tickets,
    chats,
    chatAnswer: storedLine,
    files: [],
    fileAnswer: (message) => (message.type === "offer" ? { ok: true, transferId: randomUUID() } : { ok: true }),
    connections,
    socket: () => current,
    async waitFor(read, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = read();
        if (value !== undefined && value !== false) return value as never;
        if (Date.now() > deadline) throw new Error("waitFor: délai dépassé");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
  return fake;
}
