/**
 * Every route under /api (issue 2 and on), mounted on the Express app by `createApp` (`server/app.ts`) in
 * the order that matters: better-auth before any body parser, the Origin check (issue 13 §12a), then each
 * capability's router, the forms router last (its catch-all answers every other /api path with 404).
 * Each router checks its own callers (`server/access.ts`) and bounds its own bodies and rates.
 */
import type { Express } from "express";
import type { FormServices } from "#app/utils/server-context.ts";
import { createApiRouter } from "./api.ts";
import type { Auth } from "./auth.ts";
import { authHandlers } from "./auth-http.ts";
import type { Env } from "./env.ts";
import { createAssistantRouter } from "./assistant/api.ts";
import type { AssistantRatingService } from "./assistant/ratings.ts";
import type { AssistantService } from "./assistant/service.ts";
import { createBackupRouter } from "./backup/api.ts";
import { createAgendaRouter } from "./booking/api.ts";
import type { BookingService } from "./booking/service.ts";
import { createCatalogueRouter } from "./catalogue/api.ts";
import type { CatalogueService } from "./catalogue/service.ts";
import { createGoLiveRouter } from "./go-live/api.ts";
import type { MailService } from "./outbox/mail-service.ts";
import type { RateLimitStore } from "./rate-limit.ts";
import { createRemoteSupportRouter } from "./remote-support/api.ts";
import type { DeviceService } from "./remote-support/device-service.ts";
import { iceConfigFromEnv } from "./remote-support/ice.ts";
import type { SessionService } from "./remote-support/sessions.ts";
import { createRepairsRouter } from "./repairs/api.ts";
import type { RepairService } from "./repairs/service.ts";
import { requireSameOrigin } from "./security.ts";
import { createShopRouter } from "./shop/api.ts";
import type { ShopIdentityService } from "./shop/identity.ts";
import { createStaffRouter } from "./staff/api.ts";
import type { StaffService } from "./staff/service.ts";

/** The services behind /api; an optional one absent, its routes are not mounted. */
export type ApiServices = {
  env: Env;
  /** Contact and quote requests (issue 4), for the API and the route actions. */
  forms: FormServices;
  /** Accounts (issue 5): better-auth, mounted at /api/auth. */
  auth: Auth;
  /** Remote-support sessions (issue 5), for /api/sessions…, /api/reports, /api/requests, /api/me. */
  sessions: SessionService;
  /** Issue 15, the desktop app: its routes under /api (`remote-support/device-api.ts`); absent, none. */
  devices?: DeviceService;
  /** The assistant (issue 7), for /api/assistant/…. */
  assistant: AssistantService;
  /** Issue 17 §4: ratings of the assistant's answers, for /api/assistant/…. */
  assistantRatings: AssistantRatingService;
  /** Issue 18 §1: the booking pages (router context) and the staff agenda (/api/agenda…). */
  booking: BookingService;
  /** Issue 18 §2: repair tickets (/api/repairs…, technicians) and the public page /suivi (router context). */
  repairs?: RepairService;
  /** Issue 29: staff accounts (/api/staff…: the manager's « Équipe » view, invitation and set-up links). */
  staff?: StaffService;
  /** Issue 29: the repair catalogue at run time (/api/catalogue…: the finder's index, the « Tarifs » view). */
  catalogue?: CatalogueService;
  /** Issue 29 « Boutique »: the shop's identity (/api/shop/identity, the manager; the assistant's failure message). */
  shopIdentity?: ShopIdentityService;
  /** Issue 40: whether mail leaves the server, the test mail and the « Mise en ligne » checklist (/api/mail…, /api/go-live). */
  mail?: MailService;
  /** Where limits of routes mounted here count (`services.rateLimits`); default this process's memory. */
  rateLimits?: RateLimitStore;
};

/** Mounts /api/auth, the Origin check and every API router on `app`, in that order. */
export function mountApiRoutes(app: Express, options: ApiServices): void {
  const { env } = options;
  // Before any body parser: this reads the body itself, bounded (issue 13 §5), then hands it to better-auth.
  app.all("/api/auth/{*splat}", authHandlers(options.auth, { publicUrl: env.PUBLIC_URL }));
  // Issue 13 §12a: cookies are SameSite=Lax; a state-changing request from another site is refused too.
  app.use("/api", requireSameOrigin(env.PUBLIC_URL));
  // Before the forms router: its catch-all answers every other /api path with 404.
  app.use(
    "/api",
    createAssistantRouter({
      auth: options.auth,
      assistant: options.assistant,
      ratings: options.assistantRatings,
      shop: options.shopIdentity,
    }),
  );
  app.use(
    "/api",
    createRemoteSupportRouter({
      auth: options.auth,
      sessions: options.sessions,
      devices: options.devices,
      ice: iceConfigFromEnv(env),
    }),
  );
  app.use("/api", createAgendaRouter({ auth: options.auth, booking: options.booking }));
  if (options.repairs) app.use("/api", createRepairsRouter({ auth: options.auth, repairs: options.repairs }));
  if (options.staff) app.use("/api", createStaffRouter({ auth: options.auth, staff: options.staff }));
  const counted = { auth: options.auth, rateLimits: options.rateLimits };
  app.use("/api", createBackupRouter({ ...counted, env }));
  if (options.mail)
    app.use("/api", createGoLiveRouter({ ...counted, env, mail: options.mail, shop: options.shopIdentity }));
  if (options.catalogue) app.use("/api", createCatalogueRouter({ ...counted, catalogue: options.catalogue }));
  if (options.shopIdentity) app.use("/api", createShopRouter({ ...counted, identity: options.shopIdentity }));
  app.use("/api", createApiRouter(options.forms));
}
