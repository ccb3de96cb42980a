/**
 * The database schema (Drizzle ORM, PostgreSQL dialect). Migrations in `drizzle/` are generated from this file with
 * `npm run db:generate` and committed; the server applies them at start, on PGlite and PostgreSQL alike.
 * Tables of later issues are in `schema-*.ts` beside it (also read by drizzle-kit): this file stays small.
 *
 * Issue 4: contact messages and quote requests (spec §3) are stored first,
 * each with an outbox message in the same transaction; the outbox worker
 * (`server/outbox/worker.ts`) delivers them afterwards.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { SESSION_EVENT_KINDS } from "#app/remote-support/protocol.ts";
import type { SessionConversationMessage } from "#app/assistant/session-conversation.ts";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** Spec §3 "Contact message". */
export const contactRequests = pgTable(
  "contact_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("contact_requests_created_at_idx").on(table.createdAt)],
);

/** Spec §3 "Quote request"; `domain` without its extension, `emailOption` a mailbox plan id. */
export const quoteRequests = pgTable(
  "quote_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyName: text("company_name").notNull(),
    contactName: text("contact_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    description: text("description").notNull(),
    domain: text("domain").notNull(),
    emailOption: text("email_option").notNull(),
    budget: text("budget").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("quote_requests_created_at_idx").on(table.createdAt)],
);

/**
 * A mail as stored in the outbox: everything a transport needs, so a message
 * is delivered exactly as it was composed when the request was accepted.
 * `template` and `templateParams` serve the e-mail API transport (spec §7).
 */
export type OutboxMail = {
  to: string;
  /** The visitor's address: the shop answers with "Reply". */
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  template: "contact" | "quote" | null;
  templateParams: Record<string, string>;
  /** Issue 18: an iCalendar invitation (RFC 5545 text) sent as `rendez-vous.ics`; `method` is the text's METHOD. */
  calendar?: { method: "PUBLISH" | "CANCEL"; content: string };
};

export const OUTBOX_STATUSES = ["pending", "sent"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * The transactional outbox. `message_id` is the RFC 5322 Message-ID, fixed
 * when the row is written, so a retried delivery is recognisably the same
 * mail. `locked_until` is a lease: a worker that claims a row owns it until
 * then, so two workers (or two server processes on PostgreSQL) never send the
 * same message at once.
 */
export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: text("message_id").notNull().unique(),
    /** Which request it announces ("contact", "quote"), and that request's id. */
    requestKind: text("request_kind").notNull(),
    requestId: uuid("request_id"),
    mail: jsonb("mail").$type<OutboxMail>().notNull(),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("outbox_messages_due_idx").on(table.status, table.nextAttemptAt),
    index("outbox_messages_request_idx").on(table.requestId),
    check("outbox_messages_status_check", sql`${table.status} in ('pending', 'sent')`),
  ],
);

/*
 * Accounts (issue 5), in better-auth's core shape (`npx auth generate`), with our table names: `users`, `auth_sessions`
 * (sign-in sessions, not spec §3's remote-support `sessions`), `accounts`, `verifications`. Issue 29: `role` (spec §3's
 * `is_technician`, plus `manager`) and `disabled_at` are never set from a browser (`server/access.ts`, `npm run user`).
 */
const ACCOUNT_ROLES = ["customer", "technician", "manager"] as const;
const authTimestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: text("role", { enum: ACCOUNT_ROLES }).notNull().default("customer"),
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true, mode: "date" }),
    ...authTimestamps,
  },
  (table) => [check("users_role_check", sql`${table.role} in ('customer', 'technician', 'manager')`)],
);

export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...authTimestamps,
  },
  (table) => [index("auth_sessions_user_id_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true, mode: "date" }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true, mode: "date" }),
    scope: text("scope"),
    password: text("password"),
    ...authTimestamps,
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ...authTimestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/*
 * Remote-support sessions (issue 5; spec §3 "Session", §4). `code` is the
 * short code read aloud over the phone. Status changes only through the
 * server's rules (`server/remote-support/sessions.ts`).
 * Issue 26: `origin` `app` is a session the desktop app started without an account: `user_id` and
 * `user_email` null, `user_name` the name typed in the app (or a default); its app is its only customer side.
 */
export const SESSION_STATUSES = ["disconnected", "connected"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const SESSION_ORIGINS = ["site", "app"] as const;

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    code: text("code").notNull().unique(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    technicianId: text("technician_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: SESSION_STATUSES }).notNull().default("disconnected"),
    startTime: timestamp("start_time", { withTimezone: true, mode: "date" }),
    endTime: timestamp("end_time", { withTimezone: true, mode: "date" }),
    /** Whole seconds from start_time to end_time. */
    durationSeconds: integer("duration_seconds"),
    createdAt: createdAt(),
    userName: text("user_name").notNull(),
    userEmail: text("user_email"),
    /** Issue 26: `site` (a customer's account at /soft-assist) or `app` (the desktop app, no account). */
    origin: text("origin", { enum: SESSION_ORIGINS }).notNull().default("site"),
    /** Issue 18 §4: the customer's assistant conversation (≤ 20 messages) when asked from the assistant; goes with the row. */
    assistantConversation: jsonb("assistant_conversation").$type<SessionConversationMessage[]>(),
    /** Issue 27: the customer's system in the queue ("Windows", "macOS"…), from the app or the browser; null: unknown. */
    customerSystem: text("customer_system"),
  },
  (table) => [
    index("sessions_user_id_idx").on(table.userId, table.createdAt),
    index("sessions_technician_id_idx").on(table.technicianId, table.createdAt),
    check("sessions_status_check", sql`${table.status} in ('disconnected', 'connected')`),
    check("sessions_origin_check", sql`${table.origin} in ('site', 'app')`),
    check("sessions_customer_system_check", sql`char_length(${table.customerSystem}) <= 40`),
    // A site session always has its customer's account (deleted with it), an app session never has one.
    check("sessions_customer_check", sql`(${table.origin} = 'app') = (${table.userId} is null)`),
  ],
);

/**
 * Spec §3 "Signaling message": every peer-connection message relayed, kept with its session and deleted when it ends
 * (issue 13 §3). UNLOGGED since migration 0007 (drizzle cannot declare it): never in the WAL, emptied after a crash.
 */
export const signaling = pgTable(
  "signaling",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionCode: text("session_code")
      .notNull()
      .references(() => sessions.code, { onDelete: "cascade" }),
    senderId: text("sender_id").notNull(),
    /** JSON text of the message (offer, answer, ICE candidate…), as the spec stores it. */
    data: text("data").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("signaling_session_code_idx").on(table.sessionCode, table.createdAt)],
);

/*
 * A session's record (issue 6): the audit trail (joined, sharing started and stopped, remote input on and off, ended)
 * and the chat between technician and customer, oldest first, shown in the report. `actor_id` is the participant who
 * did it, null when the server did (join and end are written with the session change they record, in one transaction).
 */
export const sessionEvents = pgTable(
  "session_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    actorId: text("actor_id"),
    kind: text("kind", { enum: SESSION_EVENT_KINDS }).notNull(),
    /** The chat message for kind `chat`, else null. */
    text: text("text"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [
    index("session_events_session_id_idx").on(table.sessionId, table.createdAt),
    check(
      "session_events_kind_check",
      sql`${table.kind} in ('joined', 'sharing-started', 'sharing-stopped', 'control-on', 'control-off', 'chat', 'ended', 'device-paired', 'control-allowed', 'control-withdrawn', 'device-unpaired', 'view-allowed', 'view-withdrawn', 'clipboard-to-customer', 'clipboard-to-technician')`,
    ),
  ],
);

/*
 * Issue 15, the desktop support app (`app/remote-support/device-protocol.ts`).
 *
 * Pairing codes: shown on the customer's page, typed into the app. Stored as
 * the SHA-256 of the canonical code (never in clear), bound to one session
 * and the account that asked for it, valid until `expires_at`; deleted when
 * used (single use: the delete that consumes it is the check) or replaced by
 * a newer code of the same session.
 */
export const devicePairingCodes = pgTable(
  "device_pairing_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("device_pairing_codes_session_id_idx").on(table.sessionId)],
);

/**
 * The app of a session and what the customer's page shares (issue 15): one row per session, made by the first pairing
 * or surface report. `pairing_id` and `token_hash` (SHA-256 of the device token) are null when no app is paired
 * (never, replaced, or the session ended); a new pairing gets a new `pairing_id` (the app's Socket.IO room).
 * `connected` is kept fresh by `last_seen_at` (a server killed mid-session leaves it true: readers want it recent).
 */
export const sessionDevices = pgTable(
  "session_devices",
  {
    sessionId: uuid("session_id")
      .primaryKey()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** The account the pairing is bound to: the session's customer; null for an app-started session (issue 26). */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    pairingId: uuid("pairing_id"),
    tokenHash: text("token_hash").unique(),
    computerName: text("computer_name"),
    platform: text("platform"),
    arch: text("arch"),
    appVersion: text("app_version"),
    /** `Injection` (`{ ok: true }` or `{ ok: false, reason }`). */
    injection: jsonb("injection").$type<{ ok: true } | { ok: false; reason: string }>(),
    /** `Screen[]`. */
    screens: jsonb("screens").$type<DeviceScreenRow[]>().notNull().default([]),
    consent: boolean("consent").notNull().default(false),
    /** What the customer's browser shares (`SurfaceBody`), null before any report. */
    displaySurface: text("display_surface"),
    surfaceWidth: integer("surface_width"),
    surfaceHeight: integer("surface_height"),
    /** Issue 26: the customer allowed, in the app, the technician to see the screen. */
    viewConsent: boolean("view_consent").notNull().default(false),
    /** Issue 26: `Capture` (`{ ok: true }` or `{ ok: false, reason }`), null from apps older than issue 26. */
    capture: jsonb("capture").$type<{ ok: true } | { ok: false; reason: string }>(),
    /** Issue 26: the monitor (`Screen.id`) the technician picked for the app's picture, null: the primary one. */
    shownScreen: text("shown_screen"),
    /** Issue 36 §4: runs as administrator (Windows; null: other systems, older apps); the secure desktop is shown. */
    elevated: boolean("elevated"),
    secureDesktop: boolean("secure_desktop").notNull().default(false),
    connected: boolean("connected").notNull().default(false),
    /** The Socket.IO id of the app's current connection: a late disconnect of an older one changes nothing. */
    connectionId: text("connection_id"),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }),
    pairedAt: timestamp("paired_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [index("session_devices_user_id_idx").on(table.userId)],
);
/** One monitor as stored (the protocol's `Screen`). */
export type DeviceScreenRow = {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
  primary: boolean;
};

/*
 * The assistant's conversation of each signed-in account (issue 7): kept so
 * a reload shows it again, cleared by "Nouvelle conversation", removed with
 * the account. Replies are stored as shown, after the server's price check.
 */
export const assistantMessages = pgTable(
  "assistant_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [
    index("assistant_messages_user_id_idx").on(table.userId, table.createdAt),
    check("assistant_messages_role_check", sql`${table.role} in ('user', 'assistant')`),
  ],
);

/*
 * Rate-limit counters shared by server processes (issue 13 §10), used only
 * with PostgreSQL (`server/rate-limit.ts`); PGlite keeps them in memory. The
 * layout is rate-limiter-flexible's own: `key` is `<limit name>:<account id,
 * IP or hash>`, `expire` ms since the epoch.
 */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 255 }).primaryKey(),
  points: integer("points").notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});
