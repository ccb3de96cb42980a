/**
 * Everything the server runs besides HTTP (issue 4): the database (opened,
 * locked and migrated), the mail transport, the outbox worker and the form
 * services built on them; accounts and remote-support sessions (issue 5). `server/index.ts` starts them before listening and
 * closes them after the last request; tests start them in-process.
 */
import type { Logger } from "pino";
import { openDatabase, type DatabaseHandle } from "#database/connection.ts";
import type { Env } from "./env.ts";
import type { FormServices } from "#app/utils/server-context.ts";
import { createOutboxWorker, type OutboxWorker } from "./outbox/worker.ts";
import { createMailTransport, mailTransportConfig, type MailTransport } from "./outbox/transports.ts";
import { createMailService, type MailService } from "./outbox/mail-service.ts";
import { createRequestService } from "./requests.ts";
import { createAuth, loadAuthSecret, type Auth } from "./auth.ts";
import { createSessionService, type SessionService } from "./remote-support/sessions.ts";
import { createDeviceService, type DeviceService } from "./remote-support/device-service.ts";
import { sessionLimitsFromEnv } from "./remote-support/limits.ts";
import { MEMORY_STORE, type RateLimitStore } from "./rate-limit.ts";
import { chatProviderFromEnv } from "./assistant/config.ts";
import { createAssistantService, type AssistantService } from "./assistant/service.ts";
import { createAssistantRatingService, RATING_RATE_LIMIT, type AssistantRatingService } from "./assistant/ratings.ts";
import { createBookingService, type BookingService } from "./booking/service.ts";
import { createRepairService, TRACKING_RATE_LIMIT, type RepairService } from "./repairs/service.ts";
import { createStaffService, type StaffService } from "./staff/service.ts";
import { listenAccountEnded } from "./staff/account-events.ts";
import { createRetentionWorker, outboxFolder, retentionPolicyFromEnv, type RetentionWorker } from "./retention.ts";
import { createBackupWorker, type BackupWorker } from "./backup/worker.ts";
import { backupFolder } from "./backup/status.ts";
import { createCatalogueService, type CatalogueService } from "./catalogue/service.ts";
import { createPageChanges, type PageChanges } from "./page-changes.ts";
import { createShopIdentityService, type ShopIdentityService } from "./shop/identity.ts";

export type Services = {
  database: DatabaseHandle;
  transport: MailTransport;
  /** Issue 40: whether mail leaves the server, and the manager's test mail. */
  mail: MailService;
  outbox: OutboxWorker;
  forms: FormServices;
  auth: Auth;
  /** Remote-support sessions (issue 5): the rules behind /api/sessions… and Socket.IO. */
  sessions: SessionService;
  /** Issue 15: the desktop app (pairing, consent, input relay state), for /api and Socket.IO. */
  devices: DeviceService;
  /** The assistant (issue 7): AI provider when configured, else offline. */
  assistant: AssistantService;
  /** Issue 17 §4: ratings of the assistant's answers, for /api/assistant/… and the staff list. */
  assistantRatings: AssistantRatingService;
  /** Issue 18 §1: online booking and the staff agenda. */
  booking: BookingService;
  /** Issue 18 §2: repair tickets (staff API) and the public tracking page `/suivi`. */
  repairs: RepairService;
  /** Issue 29: staff accounts (the manager's « Équipe » view, invitations, the set-up link). */
  staff: StaffService;
  /** Where every rate limit counts (issue 13 §10): the `rate_limits` table on PostgreSQL, memory on PGlite. */
  rateLimits: RateLimitStore;
  /** Scheduled purges of expired data (issue 13 §11), created stopped: `retention.start()` once the server listens. */
  retention: RetentionWorker;
  /** Issue 29: the nightly backup, created stopped: `backup.start()` once the server listens, when `BACKUP_NIGHTLY` allows. */
  backup: BackupWorker;
  /**
   * Issue 29: the repair catalogue at run time (JSON seed + the staff's edits in « Tarifs »), created with
   * polling stopped: `catalogue.start()` once the server listens.
   */
  catalogue: CatalogueService;
  /** Issue 29: changes of what the public pages show, announced to the page cache (`createApp`). */
  pageChanges: PageChanges;
  /** Issue 29 « Boutique »: the shop's identity in memory (`current()`), edited by the manager, polled for other processes' changes. */
  shopIdentity: ShopIdentityService;
  /** Stops the worker (waiting for a delivery in progress), then closes the transport and the database. */
  close(): Promise<void>;
};

/**
 * Opens the database and wires the services; the outbox worker is created
 * stopped (call `outbox.start()` once the server listens).
 * @throws DatabaseLockedError when another process uses the PGlite folder.
 */
export async function startServices(
  env: Env,
  logger: Logger,
  onLockLost?: (error: Error) => void,
  /** Already opened (issue 16 §3: `server/index.ts` opens it while the app's modules load); else opened here. */
  opened?: DatabaseHandle,
): Promise<Services> {
  const database =
    opened ??
    (await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      embedded: env.EMBEDDED_DATABASE,
      onLockLost,
      // Issue 16 §3: a first start (cluster creation, PGlite import) says what it is doing.
      onProgress: (message) => logger.info(message),
    }));
  logger.info({ database: database.kind, location: database.location }, "base de données prête");
  const rateLimits: RateLimitStore = database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE;
  // Issue 29: changes of what the public pages show; the shop's identity (« Boutique »), which mails, the
  // assistant and the pages read at the time they act. SHOP_EMAIL unset: the identity's e-mail, then.
  const pageChanges = createPageChanges();
  const shopIdentity = await createShopIdentityService({ db: database.db, logger, pageChanges });
  const shopInbox = () => env.SHOP_EMAIL ?? shopIdentity.current().email;
  const transport = createMailTransport(mailTransportConfig(env, shopIdentity));
  if (transport.kind === "file") {
    logger.info(
      { folder: transport.describe },
      `aucun envoi de mail configuré (SMTP_URL ou EMAILJS_*) : les mails sont écrits en ${transport.describe}`,
    );
  }
  const mail = createMailService({
    transport,
    logger,
    publicUrl: env.PUBLIC_URL,
    shop: shopIdentity,
    smtpUrl: env.SMTP_URL,
  });
  const outbox = createOutboxWorker({
    db: database.db,
    transport,
    logger,
    pollIntervalMs: env.OUTBOX_POLL_MS,
    retryBaseMs: env.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: env.OUTBOX_RETRY_MAX_MS,
  });
  const forms = createRequestService({
    db: database.db,
    logger,
    mail: {
      get shopEmail() {
        return shopInbox();
      },
      messageIdDomain: new URL(env.PUBLIC_URL).hostname,
    },
    rateLimit: { points: env.FORM_RATE_LIMIT, durationSeconds: env.FORM_RATE_WINDOW_S, store: rateLimits },
    onStored: () => outbox.wake(),
  });
  // Each needs the other: auth reports ended sign-in sessions to the session service, which checks passwords with auth.
  let sessions: SessionService | undefined;
  const secret = await loadAuthSecret(env);
  const auth = createAuth({
    db: database.db,
    env,
    logger,
    secret,
    onMailQueued: () => outbox.wake(),
    onSessionEnded: (ended) => sessions?.authSessionEnded(ended),
    rateLimits,
    shop: shopIdentity,
  });
  const authContext = await auth.$context;
  sessions = createSessionService({
    db: database.db,
    logger,
    verifyPasswordHash: authContext.password.verify,
    // Issue 13 §8: code lifetime, join and creation limits, counted where every limit counts.
    rateLimits,
    ...sessionLimitsFromEnv(env),
  });
  // Issue 26: the app leaving a session it started ends it through the session service.
  const devices = createDeviceService({ db: database.db, logger, rateLimits, sessions });
  // Issue 29: the catalogue first: the assistant, the booking form and tickets read its current prices.
  const catalogue = await createCatalogueService({ db: database.db, logger, pageChanges });
  const provider = chatProviderFromEnv(env);
  const assistant = createAssistantService({
    db: database.db,
    logger,
    provider,
    rateLimit: { points: env.AI_RATE_LIMIT, durationSeconds: env.AI_RATE_WINDOW_S, store: rateLimits },
    catalogue: () => catalogue.current().brands,
    shop: shopIdentity,
  });
  const assistantRatings = createAssistantRatingService({
    db: database.db,
    logger,
    rateLimit: { ...RATING_RATE_LIMIT, store: rateLimits },
  });
  // The model and the server's host, never the key.
  logger.info(
    provider ? provider.logFields : {},
    provider
      ? "assistant : fournisseur d'IA configuré"
      : "assistant : aucun fournisseur d'IA configuré, assistant hors ligne",
  );
  const booking = createBookingService({
    db: database.db,
    logger,
    mail: {
      get shopEmail() {
        return shopInbox();
      },
      publicUrl: env.PUBLIC_URL,
      shop: shopIdentity,
    },
    secret,
    rateLimit: { points: env.FORM_RATE_LIMIT, durationSeconds: env.FORM_RATE_WINDOW_S, store: rateLimits },
    onStored: () => outbox.wake(),
    catalogue: () => catalogue.current(),
  });
  const repairs = createRepairService({
    db: database.db,
    logger,
    mail: {
      get shopEmail() {
        return shopInbox();
      },
      messageIdDomain: new URL(env.PUBLIC_URL).hostname,
      publicUrl: env.PUBLIC_URL,
      shop: shopIdentity,
    },
    rateLimit: { ...TRACKING_RATE_LIMIT, store: rateLimits },
    onMailQueued: () => outbox.wake(),
    catalogue: () => catalogue.current(),
  });
  const staff = createStaffService({
    db: database.db,
    auth,
    logger,
    publicUrl: env.PUBLIC_URL,
    rateLimits,
    onMailQueued: () => outbox.wake(),
    onSessionEnded: (ended) => sessions?.authSessionEnded(ended),
    // Issue 37 §4: a disabled technician's sessions end; the app is released and told.
    onSessionsReleased: (ids) => void sessions?.announceReleased(ids),
    shop: shopIdentity,
    // Issue 40: without a way out for mail, the manager gets the invitation link to pass on.
    mailConfigured: mail.configured,
  });
  // Issue 29: `npm run user -- disable|delete` beside this server ends the account's sockets at once (NOTIFY);
  // issue 37: `promote`/`demote` too, and the sessions the account had joined are announced ended.
  const accountEvents = database.pool
    ? listenAccountEnded(
        database.pool,
        (ended) => sessions?.authSessionEnded(ended),
        logger,
        (ids) => void sessions?.announceReleased(ids),
      )
    : undefined;
  const retention = createRetentionWorker({
    db: database.db,
    logger,
    policy: retentionPolicyFromEnv(env),
    outboxFolder: outboxFolder(env),
  });
  const backup = createBackupWorker({
    handle: database,
    dir: backupFolder(env),
    hour: env.BACKUP_HOUR,
    keepDays: env.BACKUP_KEEP_DAYS,
    logger,
  });
  return {
    database,
    transport,
    mail,
    outbox,
    forms,
    auth,
    sessions,
    devices,
    assistant,
    assistantRatings,
    booking,
    repairs,
    staff,
    rateLimits,
    retention,
    backup,
    catalogue,
    pageChanges,
    shopIdentity,
    async close() {
      shopIdentity.close();
      await catalogue.stop();
      await accountEvents?.close();
      await retention.stop();
      await backup.stop();
      await outbox.stop();
      transport.close();
      await database.close();
    },
  };
}

/** What `createApp` needs of the services (HTTP routes and route actions), for `server/index.ts` and the tests. */
export function appServices(
  services: Services,
): Pick<
  Services,
  | "forms"
  | "auth"
  | "sessions"
  | "devices"
  | "assistant"
  | "assistantRatings"
  | "booking"
  | "repairs"
  | "staff"
  | "catalogue"
  | "pageChanges"
  | "shopIdentity"
  | "rateLimits"
  | "mail"
> {
  return {
    forms: services.forms,
    auth: services.auth,
    sessions: services.sessions,
    devices: services.devices,
    assistant: services.assistant,
    assistantRatings: services.assistantRatings,
    booking: services.booking,
    repairs: services.repairs,
    staff: services.staff,
    catalogue: services.catalogue,
    pageChanges: services.pageChanges,
    shopIdentity: services.shopIdentity,
    rateLimits: services.rateLimits,
    mail: services.mail,
  };
}
