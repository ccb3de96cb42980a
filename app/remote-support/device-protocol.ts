/**
 * The desktop support app's protocol (issue 15), in one module shared by the
 * browser, the server and the app (`desktop/`): pairing, the consent to
 * control, the input events and the Socket.IO events of the `/device`
 * namespace. Pure: zod only, no server, browser or OS API.
 *
 * Pairing (the page shows a code, the app asks for it):
 * 1. The customer, in their open session, asks for a pairing code:
 *    `POST /api/sessions/:code/pairing` (session owner only) → `PairingCodeResponse`.
 *    Single use, bound to that session and that account, valid `PAIRING_CODE_TTL_S`.
 * 2. The app sends it with what it knows of the computer: `POST /api/device/pair`
 *    `DevicePairBody` → `DevicePairResponse` with a device token (random,
 *    stored hashed by the server, bound to the session and the account, void
 *    when the session ends or the app is unpaired).
 * 3. The app connects to the Socket.IO namespace `DEVICE_NAMESPACE` with
 *    `auth: { token }`, reports its state (`device:status`) and receives
 *    `device:state`, `device:input`, `device:release`, `device:ended`.
 * 4. Both browsers of the session receive `session:device` (`DeviceView`) on
 *    every change: paired, consent, control, injection possible or not.
 *
 * Consent: control reaches the computer only when the customer allowed it
 * (`POST /api/sessions/:code/consent` `ConsentBody`, owner only, or
 * `device:consent` `{ allowed: false }` from the app: Ctrl+C, closing it), the
 * technician's toggle is on (the session's last `control-on`/`control-off`
 * event) and the app is connected. The server drops every input otherwise.
 *
 * Input (technician → server → app, docs/decisions/010): the technician's
 * browser emits `input` (`InputBatch`) on its usual socket; the server checks
 * the sender (the technician joined to that session), the toggle, the
 * consent, the budget (`INPUT_LIMITS`) and relays the events to the app.
 * Whenever control stops (toggle off, consent withdrawn, technician gone,
 * session ended) the server sends `device:release` and the app releases
 * every key and button it holds.
 */
import { z } from "zod";
import { nameString, programWords } from "#app/utils/text.ts";
import { Capture, type DeviceConsentBody, type ScreenDemand, type ScreenFrame } from "./screen-protocol.ts";
import type { ClipboardAck, DeviceClipboard } from "./clipboard-protocol.ts";
import { isQueuePlace, type QueuePlace } from "./queue.ts";
import { ShopIdentitySchema, type OpeningSlot } from "#app/config/shop-schema.ts";
import { ResumeTicket, type ElevationReport, type ResumeTicketAck } from "./elevation-protocol.ts";
import { ComputerFacts } from "./facts-protocol.ts";

/** Socket.IO namespace of the desktop app. */
export const DEVICE_NAMESPACE = "/device";

/**
 * Pairing codes are read on the page and typed into the app: the session
 * code's unambiguous alphabet, 8 symbols shown as two groups of 4
 * ("ACDE-3479", `formatPairingCode`: not to be confused with the session code, « K7W 9GA », given to the
 * technician); issue 40: always with a digit, so that the app tells one from a first name; 25⁸ − 20⁸ ≈ 1.3 × 10¹¹
 * codes, single use, 10 minutes.
 */
export const PAIRING_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679";
export const PAIRING_CODE_LENGTH = 8;
export const PAIRING_CODE_TTL_S = 600;

/** What a person typed (any case, spaces or dashes) → the canonical pairing code. */
export function normalizePairingCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, "");
}

/** "ACDE3479" → "ACDE-3479", as the page shows it. */
export function formatPairingCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export const PairingCode = z
  .string({ error: "Le code d'appairage est obligatoire." })
  .max(32, { error: "Ce code d'appairage n'est pas valide." })
  .transform(normalizePairingCode)
  .pipe(
    z
      .string()
      .length(PAIRING_CODE_LENGTH, { error: "Ce code d'appairage n'est pas valide." })
      .refine((code) => [...code].every((symbol) => PAIRING_CODE_ALPHABET.includes(symbol)), {
        error: "Ce code d'appairage n'est pas valide.",
      }),
  );

/** French messages of the pairing and control API (also shown by the app). */
export const DEVICE_MESSAGES = {
  pairingInvalid: "Ce code d'appairage n'est pas valide, a déjà servi ou a expiré. Affichez-en un nouveau sur la page.",
  tooManyPairings: "Trop de tentatives d'appairage. Réessayez dans quelques minutes.",
  deviceGone: "Le logiciel n'est plus connecté à cette session.",
  notPaired: "Aucun logiciel n'est connecté à cette session.",
  sessionEnded: "La session est terminée : le logiciel se ferme.",
  tokenInvalid: "Ce logiciel n'est plus appairé : relancez-le et saisissez un nouveau code.",
  controlRefused: "Le contrôle n'est pas autorisé.",
  tooMuchInput: "Trop d'événements de contrôle : certains ont été ignorés.",
  windowShared: "Le contrôle demande le partage de l'écran entier (pas d'une fenêtre ni d'un onglet).",
  // Added with the server (issue 15): the session's customer alone pairs, consents and reports the shared surface;
  // an app whose session was paired again with another computer is told so before it closes.
  ownerOnly: "Seul le client de cette session peut faire cela.",
  replaced: "Un autre ordinateur a été appairé à cette session : ce logiciel se ferme.",
  badBody: "Le contenu envoyé n'est pas valide.",
} as const;

/**
 * Why Ctrl+Alt+Suppr cannot reach a Windows computer (French): the app says it to the customer when asked, and the
 * technician's view says the same at once (issue 36 §2). One text for both.
 */
export const SAS_REASON_WINDOWS =
  "Windows réserve Ctrl+Alt+Suppr au système : aucun logiciel ne peut l'envoyer à distance. " +
  "Si c'est nécessaire, le client appuie lui-même sur Ctrl+Alt+Suppr.";

export const DEVICE_PLATFORMS = ["linux", "windows", "macos"] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];
/** How the page names each system. */
export const PLATFORM_NAMES: Record<DevicePlatform, string> = { linux: "Linux", windows: "Windows", macos: "macOS" };

/** One monitor of the computer, in the OS's pixels (`scale`: device pixels per OS pixel). */
export const Screen = z.object({
  id: z.string().max(64),
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
  scale: z.number().min(0.1).max(10).default(1),
  primary: z.boolean().default(false),
});
export type Screen = z.infer<typeof Screen>;

/**
 * Whether the app can inject input: `ok`, or why not in French, shown to
 * both sides as is (Wayland, macOS Accessibility permission not granted, no
 * X display…).
 */
export const Injection = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true) }),
  // Issue 37 §6: the app's words, one line, with no character that reorders or hides what the technician reads.
  z.object({ ok: z.literal(false), reason: programWords(500) }),
]);
export type Injection = z.infer<typeof Injection>;

/** What the app says about itself when pairing and on `device:status`. */
export const DeviceStatus = z.object({
  injection: Injection,
  /** Every monitor; the first primary one is used when the page cannot tell which is shared. */
  screens: z.array(Screen).min(1).max(16),
  /** Issue 26: whether the app can capture the screen; absent from apps older than issue 26. */
  capture: Capture.optional(),
  /** Issue 36 §4 (`elevation-protocol.ts`): Windows only, the app runs as administrator; absent elsewhere. */
  elevated: z.boolean().optional(),
  /** Issue 36 §4: Windows shows its secure desktop (UAC prompt…) and the picture is paused; absent: false. */
  secureDesktop: z.boolean().optional(),
});
export type DeviceStatus = z.infer<typeof DeviceStatus>;

export const DevicePairBody = DeviceStatus.extend({
  pairingCode: PairingCode,
  facts: ComputerFacts.optional(), // Issue 38 §4 (`facts-protocol.ts`): only with the customer's consent.
  /** The computer's name (hostname), shown on the page: "Logiciel connecté — PC-SALON". */
  computerName: nameString().trim().min(1).max(100),
  platform: z.enum(DEVICE_PLATFORMS),
  arch: z.string().max(20),
  appVersion: z.string().max(40),
});
export type DevicePairBody = z.input<typeof DevicePairBody>;

/** `POST /api/sessions/:code/pairing`. `expiresAt`: ISO 8601. */
export type PairingCodeResponse = { pairingCode: string; expiresAt: string };
/** `POST /api/device/pair`: the token for the `/device` namespace; names for the app's terminal. */
export type DevicePairResponse = { deviceToken: string; customerName: string; sessionCode: string };

/**
 * Issue 26, `POST /api/device/sessions` (the app run with no argument, no account, no cookie, no Origin): a new
 * session "depuis le logiciel", already paired with the app that asked. `customerName`: the name the customer
 * gave, if any (absent, null, empty or blank: none, and the server names them « Client sans compte »).
 * Answers 201 `DeviceSessionResponse`; 400 `{ message }` (French) for a bad body, 413 past 16 KB, 429 with
 * `Retry-After` (s) past `SESSION_APP_CREATE_LIMIT` sessions per IP address and `SESSION_APP_CREATE_WINDOW_S`.
 * The token then works on `DEVICE_NAMESPACE` as a paired app's does; the session's code expires like other
 * session codes (`SESSION_CODE_TTL_S`) when no technician joins it, and `device:leave` ends the session.
 */
export const DeviceSessionBody = DeviceStatus.extend({
  // Issue 37 §6: « Marie\u202E… » reversed the « — depuis le logiciel » shown after it.
  customerName: nameString({ error: "Le nom doit être un texte." })
    .trim()
    .max(80, { error: "Le nom ne doit pas dépasser 80 caractères." })
    .nullish()
    .transform((name) => (name ? name : undefined)),
  facts: ComputerFacts.optional(), // Issue 38 §4 (`facts-protocol.ts`): only with the customer's consent.
  computerName: nameString().trim().min(1).max(100),
  platform: z.enum(DEVICE_PLATFORMS),
  arch: z.string().max(20),
  appVersion: z.string().max(40),
});
export type DeviceSessionBody = z.input<typeof DeviceSessionBody>;
/**
 * `POST /api/device/sessions` → 201: the app's token, the name it shows (`customerName`, the given one or the
 * default), the session code to read to the technician, and when that code stops being joinable (`expiresAt`,
 * ISO 8601).
 */
export type DeviceSessionResponse = DevicePairResponse & { expiresAt: string };

/**
 * Issue 36 §4, `POST /api/device/resume` (`elevation-protocol.ts`): the app relaunched as administrator rejoins
 * session `sessionCode` with the single-use `ticket` its previous process got, and says what it knows of the
 * computer again. Answers 201 `DevicePairResponse`.
 */
export const DeviceResumeBody = DeviceStatus.extend({
  ticket: ResumeTicket,
  sessionCode: z.string().trim().min(1).max(32),
  computerName: nameString().trim().min(1).max(100),
  platform: z.enum(DEVICE_PLATFORMS),
  arch: z.string().max(20),
  appVersion: z.string().max(40),
});
export type DeviceResumeBody = z.input<typeof DeviceResumeBody>;

/** `POST /api/sessions/:code/consent` (session owner): allow or withdraw control. */
export const ConsentBody = z.object({ allowed: z.boolean() });

/**
 * `POST /api/sessions/:code/surface` (session owner), when sharing starts or
 * changes: what the customer's browser shares (`MediaTrackSettings`
 * `displaySurface`, picture size in px). Control needs `monitor`; the server
 * picks the app's screen of that size (device pixels), else the primary one.
 */
export const SurfaceBody = z.object({
  displaySurface: z.enum(["monitor", "window", "browser", "unknown"]),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
});
export type SurfaceBody = z.infer<typeof SurfaceBody>;

/**
 * What both browsers of a session see of the app (`session:device`,
 * `GET /api/sessions/:code/device`): null fields when it is not paired.
 */
export type DeviceView = {
  paired: boolean;
  /** The app's connection is up (it may be briefly down while reconnecting). */
  connected: boolean;
  computerName: string | null;
  platform: DevicePlatform | null;
  injection: Injection | null;
  screens: Screen[];
  /** The monitor the shared picture shows (its `Screen.id`), null when unknown or not a whole screen. */
  shownScreen: string | null;
  /** The share is a whole screen (`displaySurface` `monitor`): control can map the picture to pixels. */
  wholeScreen: boolean;
  /** The customer allows control (page or app). */
  consent: boolean;
  /** The technician's toggle is on (they ask for control). */
  controlRequested: boolean;
  /** Input reaches the computer now: paired, connected, consent, toggle on, injection ok. */
  controlActive: boolean;
  /** Issue 26: the customer allowed the technician to see the screen in the app. */
  viewConsent: boolean;
  /** Issue 26: whether the app can capture the screen (null: an app older than issue 26, or not paired). */
  capture: Capture | null;
  /**
   * Issue 26: the picture comes from the app (`screen:frame`), not from a browser share: paired, connected,
   * able to capture, view allowed. `shownScreen` is then the monitor the technician picked (or the primary one).
   */
  appPicture: boolean;
  /** Issue 36 §4: the app runs as administrator (null: not Windows, or an app older than issue 36). */
  elevated?: boolean | null;
  /** Issue 36 §4: Windows shows its secure desktop now (a UAC prompt…): the picture is paused. */
  secureDesktop?: boolean;
  /** Issue 38 §3 (`reboot-protocol.ts`): the computer restarts; the app may come back until then (ISO 8601). */
  rebootingUntil?: string | null;
};
export type DeviceResponse = { device: DeviceView };

/** Input events, technician → server → app. Pointer positions: fractions 0–1 of the shared picture. */
const Fraction = z.number().min(0).max(1);
/** `KeyboardEvent.code` ("KeyA", "ControlLeft", "F5"…): the physical key, so shortcuts work on any layout. */
const KeyCode = z.string().regex(/^[A-Za-z0-9]{1,32}$/);
export const InputEvent = z.discriminatedUnion("t", [
  z.object({ t: z.literal("move"), x: Fraction, y: Fraction }),
  /** `button`: `MouseEvent.button` (0 left, 1 middle, 2 right). */
  z.object({ t: z.literal("button"), button: z.number().int().min(0).max(2), down: z.boolean() }),
  /** Wheel, in notches (`deltaY` > 0 scrolls down), −20…20. */
  z.object({ t: z.literal("wheel"), dx: z.number().int().min(-20).max(20), dy: z.number().int().min(-20).max(20) }),
  /** A key by its physical `code`: shortcuts, arrows, Backspace, Enter… */
  z.object({ t: z.literal("key"), code: KeyCode, down: z.boolean() }),
  /** Text typed without Ctrl/Alt/Meta: injected as characters, whatever the customer's layout. */
  z.object({ t: z.literal("text"), text: z.string().min(1).max(64) }),
  /** Ctrl+Alt+Suppr, where the system lets an app send it. */
  z.object({ t: z.literal("sas") }),
]);
export type InputEvent = z.infer<typeof InputEvent>;

/** Budget per technician socket: events per batch, JSON characters per batch, events per second (burst = 2 s). */
export const INPUT_LIMITS = { batchEvents: 32, batchChars: 4_096, eventsPerSecond: 250 } as const;

export const InputBatch = z.object({
  /** The session code. */
  code: z.string().max(32),
  events: z.array(InputEvent).min(1).max(INPUT_LIMITS.batchEvents),
});
export type InputBatch = z.infer<typeof InputBatch>;
export type InputAck = { ok: true } | { ok: false; message: string };

/** What the app's terminal shows, pushed by the server on every change. */
export type DeviceState = {
  customerName: string;
  /**
   * The technician joined to the session, if any: issue 40, their first name only (`technician-name.ts`), which the
   * app reads again with `firstNameOf` (untrusted input, bounded).
   */
  technicianName: string | null;
  consent: boolean;
  /** The technician's toggle is on. */
  controlRequested: boolean;
  controlActive: boolean;
  /** Issue 26: the customer allowed the technician to see the screen (in the app). */
  viewConsent: boolean;
};

/** Server → app. */
export type ServerToDeviceEvents = import("./chat-protocol.ts").ChatServerToDeviceEvents &
  import("./reboot-protocol.ts").RebootServerToDeviceEvents &
  import("./file-protocol.ts").FileServerToDeviceEvents & {
    "device:state": (state: DeviceState) => void;
    /** Inject these, in order. `screen`: the id of the monitor the pointer fractions refer to. */
    "device:input": (batch: { events: InputEvent[]; screen: string | null }) => void;
    /** Release every key and button held now. */
    "device:release": () => void;
    /** The session ended (or the customer unpaired): the app says so and exits. */
    "device:ended": (message: string) => void;
    /** Issue 26: what to stream now (`screen-protocol.ts`). */
    "device:screen": (demand: ScreenDemand) => void;
    /** Issue 26: the technician drew frame `seq`. */
    "device:ack": (seq: number) => void;
    /** Issue 27 (`clipboard-protocol.ts`): the technician's text: put it on the OS clipboard and paste it (control active). */
    "device:clipboard": (clipboard: DeviceClipboard) => void;
    /**
     * Issue 27: the customer's place in the waiting queue (`queue.ts`), null once out of it (joined, ended); since
     * issue 29 with the shop's current opening hours (`DeviceQueuePlace`).
     */
    "device:queue": (place: DeviceQueuePlace | null) => void;
    /** Issue 36 §4: the technician asks to relaunch the app as administrator; the customer answers in the app. */
    "device:elevate": () => void;
    /** Issue 36 §4: the app relaunched as administrator took this pairing's place: exit without leaving. */
    "device:replaced": () => void;
  };

/**
 * Issue 29: what `device:queue` carries: the place, and the shop's opening hours as « Boutique » sets them when
 * the server sends it (`OpeningSlot`: ISO weekdays 1–7, "HH:MM" in Europe/Paris). The app is built once for every
 * shop (decision 023), so it cannot know them itself; it says them while the shop is closed. `openingHours` is
 * absent from servers older than issue 29 (and dropped by `readDeviceQueuePlace` when malformed): the app then
 * uses its built-in defaults (`defaultShop`).
 */
export type DeviceQueuePlace = QueuePlace & { openingHours?: OpeningSlot[] };

/** The identity's own rule for opening hours (at most 14 lines, valid times, no overlap on a day). */
const OpeningHours = ShopIdentitySchema.shape.openingHours;

/**
 * What the app keeps of a `device:queue` push (untrusted): null when `value` is not a place (`isQueuePlace`);
 * otherwise the place, with `openingHours` only when they are valid slots of the identity's schema.
 */
export function readDeviceQueuePlace(value: unknown): DeviceQueuePlace | null {
  if (!isQueuePlace(value)) return null;
  const place: DeviceQueuePlace = { place: value.place, total: value.total, estimatedMinutes: value.estimatedMinutes };
  const hours = OpeningHours.safeParse((value as { openingHours?: unknown }).openingHours);
  return hours.success ? { ...place, openingHours: hours.data } : place;
}

/** App → server. */
export type DeviceToServerEvents = import("./chat-protocol.ts").ChatDeviceToServerEvents &
  import("./reboot-protocol.ts").RebootDeviceToServerEvents &
  import("./file-protocol.ts").FileDeviceToServerEvents & {
    "device:status": (status: DeviceStatus) => void;
    /**
     * The customer's consent given in the app: `allowed` is control (withdrawn by Ctrl+C, closing it, a key;
     * since issue 26 also given there), `view` is seeing the screen (issue 26).
     */
    "device:consent": (body: DeviceConsentBody) => void;
    /** Issue 26: a picture frame (`screen-protocol.ts`), only while `device:screen` says `active`. */
    "device:frame": (frame: ScreenFrame) => void;
    /**
     * Issue 26: the customer stopped the app (Ctrl+C, closing it): the server unpairs it at once (token void,
     * consent withdrawn), so the page shows "no app" and offers a new pairing code.
     */
    "device:leave": () => void;
    /** Issue 27: the customer sends the OS clipboard's text to the technician (their click); acknowledged. */
    "device:clipboard": (clipboard: DeviceClipboard, ack: (result: ClipboardAck) => void) => void;
    /** Issue 36 §4: a single-use resume ticket for this session and pairing, before relaunching as administrator. */
    "device:resume-ticket": (ack: (result: ResumeTicketAck) => void) => void;
    /** Issue 36 §4: what became of the technician's request (declined, UAC refused, failed, started). */
    "device:elevation": (report: ElevationReport) => void;
  };

/** The app's downloads (`GET /api/downloads`), moved to `download-protocol.ts` (issue 38 §4: this module's length). */
export type { DownloadView, DownloadsResponse } from "./download-protocol.ts";
