/**
 * Issue 14, one auth guard with named permissions (`access.ts`): what each
 * role may do, the guards' answers over HTTP and on a Socket.IO handshake,
 * and that every route under `/api` but the public ones goes through a guard.
 */
import type { IncomingMessage } from "node:http";
import express, { type ErrorRequestHandler } from "express";
import { pino } from "pino";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import type { FormServices } from "#app/utils/server-context.ts";
import {
  accessOf,
  can,
  createGuards,
  permissionsOf,
  PERMISSIONS,
  requireSocketCaller,
  roleFields,
  roleOf,
  ROLE_PERMISSIONS,
  type Access,
  type Caller,
  type Permission,
  type Role,
} from "./access.ts";
import { createAgendaRouter } from "./booking/api.ts";
import type { BookingService } from "./booking/service.ts";
import { createRepairsRouter } from "./repairs/api.ts";
import type { RepairService } from "./repairs/service.ts";
import { createApiRouter } from "./api.ts";
import { createStaffRouter } from "./staff/api.ts";
import { createBackupRouter, type BackupRouterEnv } from "./backup/api.ts";
import { createGoLiveRouter } from "./go-live/api.ts";
import type { Env } from "./env.ts";
import type { MailService } from "./outbox/mail-service.ts";
import type { StaffService } from "./staff/service.ts";
import { createAssistantRouter } from "./assistant/api.ts";
import type { AssistantService } from "./assistant/service.ts";
import type { AssistantRatingService } from "./assistant/ratings.ts";
import type { Auth } from "./auth.ts";
import { createRemoteSupportRouter } from "./remote-support/api.ts";
import type { SessionService } from "./remote-support/sessions.ts";
import type { DeviceService } from "./remote-support/device-service.ts";

describe("role → permissions table", () => {
  const technicianOnly: Permission[] = [
    "session:join",
    "session:history",
    "report:read",
    "requests:read",
    "assistant:review",
  ];

  it("keeps technician-only permissions from customers (spec §6)", () => {
    for (const permission of technicianOnly) {
      expect(can({ role: "customer" }, permission), permission).toBe(false);
      expect(can({ role: "technician" }, permission), permission).toBe(true);
    }
  });

  it("lets both roles start sessions and use the assistant", () => {
    for (const role of ["customer", "technician"] as const) {
      expect(can({ role }, "session:create")).toBe(true);
      expect(can({ role }, "assistant:use")).toBe(true);
    }
  });

  it("names only declared permissions, and every permission is held by some role", () => {
    const held = new Set(Object.values(ROLE_PERMISSIONS).flat());
    for (const permission of held) expect(PERMISSIONS).toContain(permission);
    for (const permission of PERMISSIONS) expect(held, permission).toContain(permission);
    expect(permissionsOf({ role: "technician" })).toEqual(ROLE_PERMISSIONS.technician);
  });

  it("reads and writes the role through the stored role column (issue 29), unknown values as customer", () => {
    expect(roleOf({ role: "technician" })).toBe("technician");
    expect(roleOf({ role: "manager" })).toBe("manager");
    for (const stored of ["customer", "admin", "", null, undefined]) expect(roleOf({ role: stored })).toBe("customer");
    for (const role of ["customer", "technician", "manager"] as const) expect(roleOf(roleFields(role))).toBe(role);
  });

  it("gives the manager everything a technician may do, and the shop's own permissions to the manager only", () => {
    for (const permission of ROLE_PERMISSIONS.technician) expect(can({ role: "manager" }, permission)).toBe(true);
    for (const permission of ["staff:manage", "shop:manage", "backups:read"] as const) {
      expect(can({ role: "manager" }, permission), permission).toBe(true);
      expect(can({ role: "technician" }, permission), permission).toBe(false);
      expect(can({ role: "customer" }, permission), permission).toBe(false);
    }
  });
});

/** A better-auth stand-in: the Cookie header `role=<role>` is a valid session of that role; `boom` fails. */
function fakeAuth(): Auth {
  const getSession = vi.fn(async ({ headers }: { headers: Headers }) => {
    const cookie = headers.get("cookie") ?? "";
    if (cookie === "boom") throw new Error("base de données injoignable");
    const role = /^role=(\w+)$/.exec(cookie)?.[1];
    const refreshed = new Headers({ "set-cookie": "better-auth.session_token=rafraichi; Path=/" });
    if (role !== "customer" && role !== "technician" && role !== "manager" && role !== "disabled")
      return { headers: new Headers(), response: null };
    return {
      headers: refreshed,
      response: {
        user: {
          id: `u-${role}`,
          name: "Nom",
          email: `${role}@exemple.fr`,
          role: role === "disabled" ? "technician" : role,
          disabledAt: role === "disabled" ? new Date() : null,
        },
        session: { id: `s-${role}` },
      },
    };
  });
  return { api: { getSession } } as unknown as Auth;
}

describe("HTTP guards", () => {
  const auth = fakeAuth();
  const { requireCaller, requirePermission } = createGuards(auth);
  const seen: Caller[] = [];
  const app = express();
  app.get(
    "/connecte",
    requireCaller(async (_req, res, caller) => void res.json({ role: caller.role })),
  );
  app.get(
    "/rapport",
    requirePermission("report:read", async (_req, res, caller) => {
      seen.push(caller);
      res.json({ ok: true });
    }),
  );
  const onError: ErrorRequestHandler = (_error, _req, res, _next) => void res.status(500).json({ message: "échec" });
  app.use(onError);

  it("answers 401 « Utilisateur non connecté » without a valid session, uncached", async () => {
    for (const cookie of [undefined, "role=inconnu"]) {
      for (const path of ["/connecte", "/rapport"]) {
        const call = request(app).get(path);
        const response = await (cookie ? call.set("Cookie", cookie) : call);
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ message: "Utilisateur non connecté" });
        expect(response.headers["cache-control"]).toBe("no-store");
      }
    }
  });

  it("answers 403 « Réservé aux techniciens. » without the permission, before the handler", async () => {
    const response = await request(app).get("/rapport").set("Cookie", "role=customer");
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "Réservé aux techniciens." });
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(seen).toEqual([]);
  });

  it("runs the handler with the caller, and passes better-auth's refreshed cookie on", async () => {
    const response = await request(app).get("/rapport").set("Cookie", "role=technician");
    expect(response.status).toBe(200);
    expect(response.headers["set-cookie"]).toEqual(["better-auth.session_token=rafraichi; Path=/"]);
    expect(seen).toEqual([
      {
        userId: "u-technician",
        name: "Nom",
        email: "technician@exemple.fr",
        role: "technician",
        authSessionId: "s-technician",
      },
    ]);
    const customer = await request(app).get("/connecte").set("Cookie", "role=customer");
    expect(customer.body).toEqual({ role: "customer" });
  });

  it("answers 403 « Réservé au gérant de l'atelier. » to a technician on a manager's route (issue 29)", async () => {
    const staffApp = express();
    staffApp.get(
      "/equipe",
      requirePermission("staff:manage", async (_req, res) => void res.json({ ok: true })),
    );
    const technician = await request(staffApp).get("/equipe").set("Cookie", "role=technician");
    expect(technician.status).toBe(403);
    expect(technician.body).toEqual({ message: "Réservé au gérant de l'atelier." });
    const manager = await request(staffApp).get("/equipe").set("Cookie", "role=manager");
    expect(manager.status).toBe(200);
  });

  it("treats a disabled account's session as no session (issue 29)", async () => {
    const response = await request(app).get("/connecte").set("Cookie", "role=disabled");
    expect(response.status).toBe(401);
  });

  it("hands a failure to read the session to the error handler", async () => {
    const response = await request(app).get("/connecte").set("Cookie", "boom");
    expect(response.status).toBe(500);
  });

  it("tells what each guarded handler requires", () => {
    const handler = async () => {};
    expect(accessOf(requireCaller(handler))).toBe("signed-in");
    expect(accessOf(requirePermission("requests:read", handler))).toBe("requests:read");
    expect(accessOf(handler)).toBeUndefined();
  });
});

describe("Socket.IO handshake guard", () => {
  const auth = fakeAuth();
  const logger = pino({ level: "silent" });
  const handshake = async (cookie?: string) => {
    const accepted: Caller[] = [];
    const next = vi.fn();
    const socket = { request: { headers: cookie ? { cookie } : {} } as IncomingMessage };
    await requireSocketCaller(auth, logger, (_socket, caller) => accepted.push(caller))(socket, next);
    return { accepted, error: (next.mock.calls[0] as [Error?])[0] };
  };

  it("refuses a connection without a valid session with « Utilisateur non connecté »", async () => {
    const { accepted, error } = await handshake();
    expect(error?.message).toBe("Utilisateur non connecté");
    expect(accepted).toEqual([]);
  });

  it("refuses with the generic failure when the session cannot be read", async () => {
    const { accepted, error } = await handshake("boom");
    expect(error?.message).toBe("Une erreur est survenue. Veuillez réessayer.");
    expect(accepted).toEqual([]);
  });

  it("accepts a signed-in caller with their role", async () => {
    const { accepted, error } = await handshake("role=customer");
    expect(error).toBeUndefined();
    expect(accepted.map((caller) => caller.role)).toEqual<Role[]>(["customer"]);
  });
});

type RouteLayer = {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: unknown;
};

/** Every route of an Express router, nested routers included: "METHOD path" → what its guard requires (or undefined). */
function routesOf(router: unknown, prefix = ""): Map<string, Access | undefined> {
  const routes = new Map<string, Access | undefined>();
  for (const layer of (router as { stack: RouteLayer[] }).stack) {
    if (layer.route) {
      const access = layer.route.stack.map((inner) => accessOf(inner.handle)).find((found) => found !== undefined);
      for (const method of Object.keys(layer.route.methods)) {
        routes.set(`${method === "_all" ? "ALL" : method.toUpperCase()} ${prefix}${layer.route.path}`, access);
      }
    } else if (typeof layer.handle === "function" && Array.isArray((layer.handle as { stack?: unknown }).stack)) {
      for (const [route, access] of routesOf(layer.handle, prefix)) routes.set(route, access);
    }
  }
  return routes;
}

describe("routes under /api", () => {
  /**
   * Nobody needs to be signed in for these (issue 4 forms; the catch-all answers 404; issue 15 the app's pairing;
   * issue 26 a session the app starts without an account).
   */
  const PUBLIC = [
    "POST /contact",
    "POST /quote",
    "ALL /{*splat}",
    "POST /device/pair",
    "POST /device/sessions",
    // Issue 36 §4: the app relaunched as administrator, with its single-use resume ticket (its failures share the
    // pairing failures' per-IP limit).
    "POST /device/resume",
    // Issue 29: whoever holds a single-use link (rate-limited per IP address).
    "POST /staff/invitation/check",
    "POST /staff/invitation/accept",
    "POST /staff/setup/check",
    "POST /staff/setup",
  ];
  const auth = fakeAuth();
  // The routers in the order `server/app.ts` mounts them; their services are never called here.
  const routes = new Map([
    ...routesOf(
      createAssistantRouter({ auth, assistant: {} as AssistantService, ratings: {} as AssistantRatingService }),
    ),
    ...routesOf(createRemoteSupportRouter({ auth, sessions: {} as SessionService, devices: {} as DeviceService })),
    // Issue 18: the staff agenda and repair tickets (with a customer's own repairs).
    ...routesOf(createAgendaRouter({ auth, booking: {} as BookingService })),
    ...routesOf(createRepairsRouter({ auth, repairs: {} as RepairService })),
    ...routesOf(createStaffRouter({ auth, staff: {} as StaffService })),
    // Issue 40: « Sauvegardes », the mail's status, the test mail and « Mise en ligne ».
    ...routesOf(createBackupRouter({ auth, env: { DATA_DIR: "/tmp/atelier-acces" } as BackupRouterEnv })),
    ...routesOf(createGoLiveRouter({ auth, env: {} as Env, mail: {} as MailService })),
    ...routesOf(createApiRouter({} as FormServices)),
  ]);

  it("all go through a guard, except the public ones", () => {
    const unguarded = [...routes].filter(([, access]) => access === undefined).map(([route]) => route);
    expect(unguarded.sort()).toEqual([...PUBLIC].sort());
    expect(routes.size).toBeGreaterThan(PUBLIC.length + 10);
  });

  it("ask technicians' permissions where spec §6 reserves the action to them", () => {
    expect(
      Object.fromEntries([...routes].filter(([, access]) => access !== undefined && access !== "signed-in")),
    ).toEqual({
      "GET /assistant/messages": "assistant:use",
      "DELETE /assistant/messages": "assistant:use",
      "POST /assistant/messages": "assistant:use",
      "PUT /assistant/messages/:id/rating": "assistant:use",
      "GET /assistant/ratings": "assistant:review",
      "POST /sessions": "session:create",
      "GET /sessions/mine": "session:create",
      "POST /sessions/from-assistant": "session:create",
      "GET /sessions/active": "session:history",
      "GET /sessions/history": "session:history",
      "POST /sessions/join": "session:join",
      // Issue 27: the waiting queue and « Prendre en charge ».
      "GET /sessions/queue": "session:join",
      "POST /sessions/:code/claim": "session:join",
      // Issue 38 §4: the computer's facts, for the session's technician.
      "GET /sessions/:code/facts": "session:join",
      "GET /sessions/:code/report": "report:read",
      "POST /reports/verify": "report:read",
      "GET /requests": "requests:read",
      // Issue 40: « Traité » in « Demandes », and the dashboard tabs' counts.
      "POST /requests/:id/treatment": "requests:read",
      "GET /dashboard/counts": "session:history",
      "GET /agenda": "agenda:manage",
      "GET /agenda/slots": "agenda:manage",
      "POST /agenda/:id/confirm": "agenda:manage",
      "POST /agenda/:id/cancel": "agenda:manage",
      "POST /agenda/:id/move": "agenda:manage",
      "GET /agenda/settings": "agenda:manage",
      "PUT /agenda/settings": "agenda:manage",
      "GET /repairs": "repairs:manage",
      "POST /repairs": "repairs:manage",
      "GET /repairs/:id": "repairs:manage",
      "POST /repairs/:id/status": "repairs:manage",
      "POST /repairs/:id/quote": "repairs:manage",
      "POST /repairs/:id/decision": "repairs:manage",
      "POST /repairs/:id/drop-off": "repairs:manage",
      // Issue 29: the manager's « Équipe » view.
      "GET /staff": "staff:manage",
      "POST /staff/invitations": "staff:manage",
      "DELETE /staff/invitations/:id": "staff:manage",
      "POST /staff/members/:id/disable": "staff:manage",
      "POST /staff/members/:id/enable": "staff:manage",
      "POST /staff/members/:id/password-reset": "staff:manage",
      // Issue 29 and 40: the manager's backups; issue 40: mail honesty and « Mise en ligne ».
      "GET /backups/status": "backups:read",
      "POST /backups/latest": "backups:read",
      "POST /backups/copied": "backups:read",
      "GET /mail/status": "requests:read",
      "POST /mail/test": "shop:manage",
      "GET /go-live": "shop:manage",
    });
  });
});
