/**
 * What the server knows of a session's desktop app (issue 15), read in one
 * query (`loadDeviceSnapshot`): the session, its technician's name, the
 * `session_devices` row and the technician's toggle (the session's latest
 * `control-on`/`control-off` event). From it come the browsers' `DeviceView`,
 * the app's `DeviceState` and the relay's `ControlState`, so the three never
 * disagree on whether control is active.
 */
import { sql } from "drizzle-orm";
import { isTypableText } from "#app/utils/text.ts";
import type { RefusalReason } from "./session-rules.ts";
import type { AppDatabase } from "#database/connection.ts";
import { sessionDevices, sessionEvents, sessions, users, type DeviceScreenRow } from "#database/schema.ts";
import {
  DEVICE_MESSAGES,
  DEVICE_PLATFORMS,
  type DevicePlatform,
  type DeviceState,
  type DeviceView,
  type Injection,
  type Screen,
} from "#app/remote-support/device-protocol.ts";
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import { firstNameOf } from "#app/remote-support/technician-name.ts";
import { ELEVATION_MESSAGES } from "#app/remote-support/elevation-protocol.ts";
import { deviceResumeTickets } from "#database/schema-elevation.ts";

export type DeviceRefusalReason =
  RefusalReason | "owner-only" | "not-paired" | "pairing-invalid" | "too-many-pairings" | "resume-invalid";
export type DeviceRefusal = { ok: false; reason: DeviceRefusalReason; message: string; retryAfterSeconds?: number };
export type DeviceOutcome<T> = ({ ok: true } & T) | DeviceRefusal;

const DEVICE_REFUSALS = {
  "owner-only": DEVICE_MESSAGES.ownerOnly,
  "not-paired": DEVICE_MESSAGES.notPaired,
  "pairing-invalid": DEVICE_MESSAGES.pairingInvalid,
  "too-many-pairings": DEVICE_MESSAGES.tooManyPairings,
  // Issue 36 §4: unknown, used, expired or another session's ticket: one sentence for all.
  "resume-invalid": ELEVATION_MESSAGES.ticketInvalid,
} as const;

export function refuseDevice(reason: keyof typeof DEVICE_REFUSALS, retryAfterSeconds?: number): DeviceRefusal {
  return { ok: false, reason, message: DEVICE_REFUSALS[reason], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) };
}

/** The app behind a device token: its session (id and code) and its pairing (Socket.IO room). */
export type DeviceIdentity = { sessionId: string; pairingId: string; code: string };

/**
 * Announced after commit. `changed`: push the views again; `release`: the app lets go of every key and button;
 * issue 36 §4: `replaced`, the app of `pairingId` gave way to itself relaunched as administrator (told
 * `device:replaced`, disconnected).
 */
export type DeviceServiceEvent =
  | { type: "changed"; sessionId: string }
  | { type: "release"; pairingId: string }
  | { type: "ended"; pairingId: string; message: string }
  | { type: "replaced"; pairingId: string };

/**
 * Whether every string in `value` (an object from the app, already shaped by
 * zod) could be stored as text: no NUL, control character or half a
 * character (PostgreSQL refuses NUL in `text` and `\u0000` in `jsonb`; the
 * protocol's schemas do not say it, issue 13 §7 does).
 */
export function storableStrings(value: unknown): boolean {
  if (typeof value === "string") return isTypableText(value);
  if (Array.isArray(value)) return value.every(storableStrings);
  if (value !== null && typeof value === "object") return Object.values(value).every(storableStrings);
  return true;
}

/** An app whose connection was not confirmed for this long counts as gone (its server may have been killed), s. */
export const DEVICE_FRESH_S = 90;

export type DeviceRow = typeof sessionDevices.$inferSelect;

/** One session with its app, as `loadDeviceSnapshot` reads it. */
export type DeviceSnapshot = {
  sessionId: string;
  code: string;
  status: "connected" | "disconnected";
  ended: boolean;
  /** The customer's account; null for a session the app started (issue 26). */
  userId: string | null;
  technicianId: string | null;
  customerName: string;
  technicianName: string | null;
  /** The technician's toggle: their latest `control-on`/`control-off` event says on. */
  toggleOn: boolean;
  device: DeviceRow | null;
  /** The app's connection is up and was confirmed within `DEVICE_FRESH_S`. */
  deviceConnected: boolean;
  /** Issue 38 §3: until when a pending reboot's ticket may bring the app back (null: no reboot under way). */
  rebootUntil?: Date | null;
};

/**
 * Reads session `key` (its code, or its id with `by: "id"`) with its app:
 * one statement. @returns null when no such session exists.
 * @throws the database's error.
 */
export async function loadDeviceSnapshot(
  db: AppDatabase,
  key: string,
  by: "code" | "id" = "code",
): Promise<DeviceSnapshot | null> {
  const where = by === "code" ? sql`s.code = ${key}` : sql`s.id = ${key}::uuid`;
  // Raw SQL for the one query of the hot path; the device row's columns come back under the schema's names.
  const result = (await db.execute(sql`
    select s.id as session_id, s.code, s.status, s.end_time is not null as ended, s.user_id, s.technician_id,
      s.user_name, t.name as technician_name,
      (select e.kind from ${sessionEvents} e where e.session_id = s.id and e.kind in ('control-on', 'control-off')
        order by e.created_at desc limit 1) as toggle,
      d.session_id is not null as has_device, d.pairing_id, d.token_hash is not null as has_token, d.computer_name,
      d.platform, d.arch, d.app_version, d.injection, d.screens, d.consent, d.view_consent, d.capture, d.shown_screen,
      d.elevated, d.secure_desktop,
      d.display_surface, d.surface_width,
      d.surface_height, d.connected, d.connection_id, d.last_seen_at, d.paired_at, d.created_at as device_created_at,
      (d.connected and d.last_seen_at > now() - (${DEVICE_FRESH_S}::integer * interval '1 second')) as fresh,
      (select max(r.expires_at) from ${deviceResumeTickets} r where r.session_id = s.id and r.expires_at > now()
        and r.purpose = 'reboot') as reboot_until
    from ${sessions} s
    left join ${users} t on t.id = s.technician_id
    left join ${sessionDevices} d on d.session_id = s.id
    where ${where}
    limit 1`)) as unknown as { rows: Record<string, unknown>[] };
  const row = result.rows[0];
  if (!row) return null;
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));
  const device: DeviceRow | null = row.has_device
    ? {
        sessionId: row.session_id as string,
        userId: (row.user_id as string | null) ?? null,
        pairingId: (row.pairing_id as string | null) ?? null,
        // Never needed past this point; a marker keeps "paired" readable without carrying the hash around.
        tokenHash: row.has_token ? "set" : null,
        computerName: (row.computer_name as string | null) ?? null,
        platform: (row.platform as string | null) ?? null,
        arch: (row.arch as string | null) ?? null,
        appVersion: (row.app_version as string | null) ?? null,
        injection: json<DeviceRow["injection"]>(row.injection ?? null),
        screens: json<DeviceScreenRow[]>(row.screens ?? []),
        consent: row.consent === true,
        viewConsent: row.view_consent === true,
        capture: json<DeviceRow["capture"]>(row.capture ?? null),
        shownScreen: (row.shown_screen as string | null) ?? null,
        elevated: typeof row.elevated === "boolean" ? row.elevated : null,
        secureDesktop: row.secure_desktop === true,
        displaySurface: (row.display_surface as string | null) ?? null,
        surfaceWidth: row.surface_width === null ? null : Number(row.surface_width),
        surfaceHeight: row.surface_height === null ? null : Number(row.surface_height),
        connected: row.connected === true,
        connectionId: (row.connection_id as string | null) ?? null,
        lastSeenAt: date(row.last_seen_at),
        pairedAt: date(row.paired_at),
        createdAt: date(row.device_created_at) ?? new Date(0),
      }
    : null;
  return {
    sessionId: row.session_id as string,
    code: row.code as string,
    status: row.status === "connected" ? "connected" : "disconnected",
    ended: row.ended === true,
    userId: (row.user_id as string | null) ?? null,
    technicianId: (row.technician_id as string | null) ?? null,
    customerName: row.user_name as string,
    technicianName: (row.technician_name as string | null) ?? null,
    toggleOn: row.toggle === "control-on",
    device,
    deviceConnected: device?.pairingId != null && row.fresh === true,
    rebootUntil: date(row.reboot_until),
  };
}

/**
 * The monitor a shared picture of `width` × `height` px shows: the screen of
 * that size in device pixels (or in OS pixels), else the first primary one,
 * else the first. @returns its id, or null without screens.
 */
export function pickScreen(screens: readonly Screen[], width: number | null, height: number | null): string | null {
  const near = (a: number, b: number) => Math.abs(a - b) <= 2;
  const bySize =
    width !== null && height !== null
      ? (screens.find(
          (screen) =>
            near(Math.round(screen.width * screen.scale), width) &&
            near(Math.round(screen.height * screen.scale), height),
        ) ?? screens.find((screen) => near(screen.width, width) && near(screen.height, height)))
      : undefined;
  return (bySize ?? screens.find((screen) => screen.primary) ?? screens[0])?.id ?? null;
}

/** Why input for this session cannot reach the app now (a `DEVICE_MESSAGES` sentence or the app's own reason), or null. */
export function controlRefusal(snapshot: DeviceSnapshot): string | null {
  const { device } = snapshot;
  if (!device?.pairingId) return DEVICE_MESSAGES.notPaired;
  if (snapshot.ended || snapshot.status !== "connected" || !snapshot.toggleOn || !device.consent)
    return DEVICE_MESSAGES.controlRefused;
  if (!snapshot.deviceConnected) return DEVICE_MESSAGES.deviceGone;
  if (device.displaySurface !== "monitor" && !appPicture(snapshot)) return DEVICE_MESSAGES.windowShared;
  if (!device.injection?.ok) return device.injection?.reason ?? DEVICE_MESSAGES.controlRefused;
  return null;
}

/**
 * Issue 26: the picture comes from the app, not from a browser share: paired, connected, able to capture, and
 * the customer allowed the technician to see the screen in the app.
 */
export function appPicture(snapshot: DeviceSnapshot): boolean {
  const device = snapshot.device;
  return device?.pairingId != null && snapshot.deviceConnected && device.viewConsent && device.capture?.ok === true;
}

/** Issue 26: the monitor the app's picture shows: the technician's pick while the app still has it, else the primary one. */
export function appScreen(screens: readonly Screen[], picked: string | null): string | null {
  if (picked !== null && screens.some((screen) => screen.id === picked)) return picked;
  return (screens.find((screen) => screen.primary) ?? screens[0])?.id ?? null;
}

/** What both browsers see (`session:device`, `GET /api/sessions/:code/device`). */
export function toDeviceView(snapshot: DeviceSnapshot): DeviceView {
  const device = snapshot.device;
  const paired = device?.pairingId != null;
  const fromApp = appPicture(snapshot);
  const wholeScreen = fromApp || device?.displaySurface === "monitor";
  const screens: Screen[] = paired ? device.screens : [];
  return {
    paired,
    connected: paired && snapshot.deviceConnected,
    computerName: paired ? device.computerName : null,
    platform:
      paired && DEVICE_PLATFORMS.includes(device.platform as DevicePlatform)
        ? (device.platform as DevicePlatform)
        : null,
    injection: paired ? ((device.injection as Injection | null) ?? null) : null,
    screens,
    shownScreen: fromApp
      ? appScreen(screens, device?.shownScreen ?? null)
      : wholeScreen
        ? pickScreen(screens, device?.surfaceWidth ?? null, device?.surfaceHeight ?? null)
        : null,
    wholeScreen,
    consent: paired && device.consent,
    controlRequested: snapshot.toggleOn && snapshot.status === "connected",
    controlActive: controlRefusal(snapshot) === null,
    viewConsent: paired && device.viewConsent,
    capture: paired ? ((device.capture as Capture | null) ?? null) : null,
    appPicture: fromApp,
    elevated: paired ? (device.elevated ?? null) : null,
    secureDesktop: paired && snapshot.deviceConnected && device.secureDesktop,
    rebootingUntil: paired && snapshot.rebootUntil ? snapshot.rebootUntil.toISOString() : null,
  };
}

/** What the app's terminal shows (`device:state`); issue 40: the technician's first name only. */
export function toDeviceState(snapshot: DeviceSnapshot): DeviceState {
  return {
    customerName: snapshot.customerName,
    technicianName: firstNameOf(snapshot.technicianName),
    consent: snapshot.device?.consent === true,
    controlRequested: snapshot.toggleOn && snapshot.status === "connected",
    controlActive: controlRefusal(snapshot) === null,
    viewConsent: snapshot.device?.viewConsent === true,
  };
}

/** What the input relay needs of a session, cached per process (`device-service.ts`). */
export type ControlState = {
  sessionId: string;
  technicianId: string | null;
  pairingId: string | null;
  /** Null when input may go through; else the French reason sent back in the acknowledgement. */
  refusal: string | null;
  /** The monitor the pointer fractions refer to. */
  screen: string | null;
  /**
   * Issue 26: the app's picture may reach the technician now: it is the picture (`appPicture`), a technician is
   * joined and the session is on.
   */
  viewing: boolean;
  /** When it was read, ms (`performance.now()`). */
  loadedAt: number;
};

/** The relay's view of `snapshot`, stamped `loadedAt` (ms, `performance.now()`) for the cache's lifetime. */
export function toControlState(snapshot: DeviceSnapshot, loadedAt: number): ControlState {
  const view = toDeviceView(snapshot);
  return {
    sessionId: snapshot.sessionId,
    technicianId: snapshot.technicianId,
    pairingId: snapshot.device?.pairingId ?? null,
    refusal: controlRefusal(snapshot),
    screen: view.shownScreen,
    viewing: view.appPicture && snapshot.technicianId !== null && snapshot.status === "connected" && !snapshot.ended,
    loadedAt,
  };
}
