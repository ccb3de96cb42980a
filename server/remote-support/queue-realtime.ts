/**
 * Issue 27, the waiting queue live (`app/remote-support/queue.ts`,
 * `waiting-queue.ts`), on the Socket.IO server of `realtime.ts`:
 *
 * - Whenever the queue may have changed, this process reads it again and
 *   pushes it: `queue:updated` (the whole `QueueSnapshot`) to the
 *   `technicians` room, `queue:place` to each waiting site customer's
 *   `user:` room and `device:queue` to each waiting app's `device:` room.
 *   With PostgreSQL the adapter carries them to every process; the process
 *   where the change happened is the one that pushes.
 * - What may change it: a session created, joined, ended or expired, its
 *   conversation attached (the session service's announcements); an app
 *   connected, gone or paired (the device service's); a browser tab
 *   connected, or gone for `absenceGraceMs` (a reload does not blink the
 *   entry away); and every `QUEUE_REFRESH_MS` (an app of a killed process
 *   stops counting after `DEVICE_FRESH_S`; a push lost in transit is repaired).
 * - Reads run one at a time; changes during a read cause exactly one more.
 * - Issue 37 §2: changes are coalesced, at most one read and push per `QUEUE_PUSH_INTERVAL_MS` (the first at once,
 *   the others gathered into one at the end of the interval, which reads the latest state): 916 app
 *   connect/disconnect cycles in 5 s had pushed 1 210 `queue:updated` to each technician.
 * - Presence (`QueuePresence`): this process's rooms, and the other processes'
 *   through `serverSideEmit("queue:presence", userIds)`, which carries
 *   account ids only (never cookies). A process that does not answer within
 *   the adapter's 5 s counts for nothing (logged once a minute).
 */
import type { Logger } from "pino";
import type { Namespace, Server } from "socket.io";
import type { QueueServerEvents } from "#app/remote-support/queue.ts";
import type { ServerToDeviceEvents } from "#app/remote-support/device-protocol.ts";
import { fixedShop, type ShopSource } from "#app/config/shop.ts";
import type { Caller } from "#server/access.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import type { DeviceService } from "./device-service.ts";
import type { SessionService } from "./sessions.ts";
import { QUEUE_LIMIT, type QueuePresence } from "./waiting-queue.ts";

/** A tab gone this long (ms) leaves the queue: a reload comes back well within it. */
export const QUEUE_ABSENCE_GRACE_MS = 3_000;
/** Period of the queue's background read and push, ms. */
export const QUEUE_REFRESH_MS = 30_000;
/** Issue 37 §2: at most one push started by changes per this interval, ms (the last state wins). */
export const QUEUE_PUSH_INTERVAL_MS = 250;

/** Between server processes: which of these accounts have a socket here, and which technicians. */
type QueueInterServerEvents = {
  "queue:presence": (userIds: string[], reply: (answer: { present: string[]; technicians: string[] }) => void) => void;
};
/** The main namespace as this module uses it: its events typed by `QueueServerEvents`. */
type QueueServer = Server<object, QueueServerEvents, QueueInterServerEvents, { caller?: Caller }>;

export type QueueRealtimeOptions = {
  /** `realtime.ts`'s Socket.IO server. */
  io: Server;
  /** The app's namespace (`DEVICE_NAMESPACE`), absent without the desktop app. */
  devices?: { namespace: Namespace; service: DeviceService; room: (pairingId: string) => string };
  sessions: SessionService;
  logger: Logger;
  userRoom: (userId: string) => string;
  techniciansRoom: string;
  /** Several server processes share rooms (postgres adapter): ask the others who is there. */
  crossProcess: boolean;
  /** How long a browser must be gone before its account stops counting, ms (default `QUEUE_ABSENCE_GRACE_MS`). */
  absenceGraceMs?: number;
  /** Background refresh period, ms (default `QUEUE_REFRESH_MS`). */
  refreshMs?: number;
  /** Issue 29: where the opening hours sent to apps are read, at each push (default: `defaultShop`'s). */
  shop?: ShopSource;
};

export type QueueRealtime = {
  /** Reads and pushes the queue now (after any read in progress); resolves once pushed. */
  refresh(): Promise<void>;
  /** Stops listening and the timers. */
  close(): void;
};

/** Attaches the queue's pushes (see the module comment). */
export function attachQueueRealtime(options: QueueRealtimeOptions): QueueRealtime {
  const { sessions, logger, userRoom, techniciansRoom, crossProcess } = options;
  const io = options.io as unknown as QueueServer;
  const main = io.of("/");
  const graceMs = options.absenceGraceMs ?? QUEUE_ABSENCE_GRACE_MS;
  const devices = options.devices;
  const shop = options.shop ?? fixedShop();
  const deviceNamespace = devices?.namespace as unknown as Namespace<object, ServerToDeviceEvents> | undefined;
  const unanswered = createRefusalLog(logger, "file d'attente : présence non confirmée par un autre serveur");

  /** This process's part of the presence: accounts of `userIds` with a socket here, technicians with one here. */
  function localPresence(userIds: readonly string[]): { present: string[]; technicians: string[] } {
    const present = userIds.filter((id) => (main.adapter.rooms.get(userRoom(id))?.size ?? 0) > 0);
    const technicians = new Set<string>();
    for (const socketId of main.adapter.rooms.get(techniciansRoom) ?? []) {
      const id = main.sockets.get(socketId)?.data.caller?.userId;
      if (id) technicians.add(id);
    }
    return { present, technicians: [...technicians] };
  }

  io.on("queue:presence", (userIds, reply) => {
    if (typeof reply !== "function") return;
    const ids = Array.isArray(userIds) ? userIds.filter((id) => typeof id === "string").slice(0, QUEUE_LIMIT) : [];
    reply(localPresence(ids));
  });

  const presence: QueuePresence = async (userIds) => {
    const answers = [localPresence(userIds)];
    if (crossProcess) {
      const others = await new Promise<{ present: string[]; technicians: string[] }[]>((resolve) => {
        io.serverSideEmit("queue:presence", [...userIds], (error: Error | null, responses: unknown[]) => {
          if (error) unanswered("délai dépassé");
          resolve((responses ?? []) as { present: string[]; technicians: string[] }[]);
        });
      });
      answers.push(...others);
    }
    const technicians = new Set(answers.flatMap((answer) => answer.technicians ?? []));
    return { present: new Set(answers.flatMap((answer) => answer.present ?? [])), technicians: technicians.size };
  };
  sessions.setQueuePresence(presence);

  let closed = false;
  /** The read in progress, and whether another must follow it. */
  let running: Promise<void> | undefined;
  let again = false;

  async function push(): Promise<void> {
    const { snapshot, waiting } = await sessions.queueState();
    io.to(techniciansRoom).emit("queue:updated", snapshot);
    const openingHours = shop.current().openingHours;
    for (const customer of waiting) {
      if (customer.userId)
        io.to(userRoom(customer.userId)).emit("queue:place", { code: customer.code, place: customer.place });
      if (customer.pairingId && devices && deviceNamespace)
        deviceNamespace.to(devices.room(customer.pairingId)).emit("device:queue", { ...customer.place, openingHours });
    }
    // Those told a place by this process that no longer wait (taken, ended, gone) hear that they are out.
    const still = new Set(waiting.map((customer) => customer.code));
    for (const [code, customer] of told) {
      if (still.has(code)) continue;
      if (customer.userId) io.to(userRoom(customer.userId)).emit("queue:place", { code, place: null });
      if (customer.pairingId && devices && deviceNamespace)
        deviceNamespace.to(devices.room(customer.pairingId)).emit("device:queue", null);
    }
    told = new Map(waiting.map((customer) => [customer.code, customer]));
  }
  let told = new Map<string, { userId: string | null; pairingId: string | null }>();

  function refresh(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await push();
        } catch (error) {
          logger.warn({ err: error }, "file d'attente non diffusée : nouvel essai au prochain changement");
        }
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }
  /** When the last push caused by a change started (ms, monotonic), and the one waiting for its turn. */
  let lastScheduled = Number.NEGATIVE_INFINITY;
  let coalescing: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    coalescing = undefined;
    lastScheduled = performance.now();
    void refresh();
  };
  const schedule = () => {
    if (closed || coalescing) return;
    const wait = lastScheduled + QUEUE_PUSH_INTERVAL_MS - performance.now();
    if (wait <= 0) return fire();
    coalescing = setTimeout(fire, wait);
    coalescing.unref?.();
  };

  const absences = new Set<ReturnType<typeof setTimeout>>();
  main.on("connection", (socket) => {
    schedule();
    socket.on("disconnect", () => {
      const timer = setTimeout(() => {
        absences.delete(timer);
        schedule();
      }, graceMs);
      timer.unref?.();
      absences.add(timer);
    });
  });
  const unsubscribeSessions = sessions.subscribe((event) => {
    if (event.type === "session") schedule();
  });
  const unsubscribeDevices = devices?.service.subscribe((event) => {
    if (event.type === "changed") schedule();
  });
  const timer = setInterval(schedule, options.refreshMs ?? QUEUE_REFRESH_MS);
  timer.unref();

  return {
    refresh,
    close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(coalescing);
      for (const absence of absences) clearTimeout(absence);
      absences.clear();
      unsubscribeSessions();
      unsubscribeDevices?.();
    },
  };
}
