/**
 * Issue 28, the booking pages' loaders and actions as React Router calls
 * them, over the real booking service on PGlite and PostgreSQL:
 * - the booking form carries a one-time key drawn at each rendering, and
 *   the same POST sent again (no JavaScript needed) redirects to the same
 *   booking, stored once ("a retried booking must not book twice");
 * - a slot in the year 9999 gets a French 400, never a 5xx (§4);
 * - past the cap of upcoming appointments, the page says to call the shop (§5);
 * - a cancelled booking's manage page carries no personal data, only that
 *   it was cancelled (§10); the active one's data carries none either.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bookingServicesContext } from "#app/booking/context.ts";
import { BOOKING_MESSAGES } from "#app/booking/schemas.ts";
import { defaultShop as shop } from "#app/config/shop.ts";
import { action as bookAction, loader as bookLoader } from "#app/routes/rendez-vous.tsx";
import { action as manageAction, loader as manageLoader } from "#app/routes/rendez-vous.gerer.tsx";
import { requestOriginContext } from "#app/utils/server-context.ts";
import { appointments } from "#database/schema-booking.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createBookingService } from "./service.ts";

const BASE = "http://127.0.0.1:9";
/** Monday 23 November 2026, 09:00 in Paris. */
const NOW = new Date("2026-11-23T08:00:00Z");
const tuesday = (index: number) => new Date(Date.parse("2026-11-24T08:00:00Z") + index * 1_800_000).toISOString();
const FIELDS = {
  name: "Léa Martin",
  email: "lea@exemple.fr",
  phone: "06 12 34 56 78",
  note: "Écran fissuré en haut",
  model: "iphone-13",
  repair: "ecran",
  site_web: "",
};

type Answer = { status: number; location: string | null; data: unknown };

describe.each(DATABASE_KINDS)("booking pages (issue 28) on %s", (kind) => {
  let database: TestDatabase;
  let context: RouterContextProvider;

  /** Runs a route function like React Router: a thrown redirect is an answer too. */
  async function run(call: () => unknown): Promise<Answer> {
    try {
      const answer = (await call()) as { init?: ResponseInit; data: unknown };
      return { status: answer.init?.status ?? 200, location: null, data: answer.data };
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      return { status: thrown.status, location: thrown.headers.get("Location"), data: null };
    }
  }
  const post = (path: string, fields: Record<string, string>) =>
    run(() =>
      (path.startsWith("/rendez-vous/gerer") ? manageAction : bookAction)({
        request: new Request(`${BASE}${path}`, {
          method: "POST",
          headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
        }),
        context,
        params: {},
      } as never),
    );
  const get = (path: string) =>
    run(() =>
      (path.startsWith("/rendez-vous/gerer") ? manageLoader : bookLoader)({
        request: new Request(`${BASE}${path}`),
        context,
        params: {},
      } as never),
    );
  const tokenOf = (location: string) => new URL(location, BASE).searchParams.get("jeton")!;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    context = new RouterContextProvider();
    context.set(
      bookingServicesContext,
      createBookingService({
        db: database.db,
        logger: pino({ level: "silent" }),
        mail: { shopEmail: "atelier@exemple.fr", publicUrl: BASE },
        secret: "p".repeat(40),
        rateLimit: { points: 1000, durationSeconds: 60 },
        now: () => NOW,
      }),
    );
    context.set(requestOriginContext, { ip: "203.0.113.10" });
  });
  beforeEach(async () => {
    await database.db.execute(sql.raw("truncate appointments, shop_settings, outbox_messages cascade"));
  });
  afterAll(async () => database?.dispose());

  it("draws a form key at each rendering; the same POST sent again redirects to the same booking, stored once", async () => {
    const first = (await get("/rendez-vous")).data as { formKey: string };
    const second = (await get("/rendez-vous")).data as { formKey: string };
    expect(first.formKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.formKey).not.toBe(first.formKey);

    const fields = { ...FIELDS, slot: tuesday(0), cle: first.formKey };
    const answers = [await post("/rendez-vous", fields), await post("/rendez-vous", fields)];
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    expect(answers[1]!.location).toBe(answers[0]!.location);
    expect(await database.db.$count(appointments)).toBe(1);
    // Another rendering's key books again (the same person's second appointment).
    expect((await post("/rendez-vous", { ...fields, slot: tuesday(1), cle: second.formKey })).status).toBe(303);
    expect(await database.db.$count(appointments)).toBe(2);
  });

  it("answers a slot in the year 9999 with a French 400 on both pages, never a 5xx (§4)", async () => {
    const far = "9999-12-31T09:00:00.000Z";
    const refused = await post("/rendez-vous", { ...FIELDS, slot: far });
    expect(refused).toMatchObject({ status: 400, data: { fieldErrors: { slot: BOOKING_MESSAGES.outsideWindow } } });
    const booked = await post("/rendez-vous", { ...FIELDS, slot: tuesday(0) });
    const manage = `/rendez-vous/gerer?jeton=${encodeURIComponent(tokenOf(booked.location!))}`;
    expect(await post(manage, { intent: "move", slot: far })).toMatchObject({
      status: 400,
      data: { message: BOOKING_MESSAGES.outsideWindow },
    });
  });

  it("asks to call the shop past the cap of upcoming appointments (§5)", async () => {
    for (let index = 0; index < 3; index++)
      expect((await post("/rendez-vous", { ...FIELDS, slot: tuesday(index) })).status).toBe(303);
    const refused = await post("/rendez-vous", { ...FIELDS, slot: tuesday(3) });
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ message: BOOKING_MESSAGES.tooManyUpcoming(3, shop.phone.display) });
    expect((refused.data as { message: string }).message).toContain(shop.phone.display);
  });

  it("shows a cancelled booking without any personal data, and how to book again (§10)", async () => {
    const booked = await post("/rendez-vous", { ...FIELDS, slot: tuesday(0) });
    const token = tokenOf(booked.location!);
    const personal = [FIELDS.name, FIELDS.email, FIELDS.phone, FIELDS.note];
    const active = await get(`/rendez-vous/gerer?jeton=${encodeURIComponent(token)}`);
    expect(active.data).toMatchObject({ appointment: { status: "requested", startsAt: tuesday(0) } });
    for (const value of personal) expect(JSON.stringify(active.data)).not.toContain(value);

    const cancelled = await post(`/rendez-vous/gerer?jeton=${encodeURIComponent(token)}`, { intent: "cancel" });
    expect(cancelled.status).toBe(303);
    for (const path of [cancelled.location!, `/rendez-vous/gerer?jeton=${encodeURIComponent(token)}&nouveau=1`]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.data).toMatchObject({ appointment: null, cancelled: true, token: "", week: null });
      for (const value of [...personal, "iPhone 13", token]) expect(JSON.stringify(page.data)).not.toContain(value);
    }
    expect((await get(cancelled.location!)).data).toMatchObject({ notice: BOOKING_MESSAGES.cancelled });
  });
});
