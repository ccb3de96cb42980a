/**
 * Issue 18 §1 with the hostile inputs of issue 13 §7 (`tests/support/bad-inputs.ts`): the booking
 * page's action and the manage page's action answer every corrupted body (NUL, invalid UTF-8, lone
 * surrogates, wrong content types, broken multipart…) with a 4xx, never a stack trace, and store nothing.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingServicesContext } from "#app/booking/context.ts";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { shopDate, slotsBetween } from "#app/booking/slots.ts";
import { action as bookAction } from "#app/routes/rendez-vous.tsx";
import { action as manageAction } from "#app/routes/rendez-vous.gerer.tsx";
import { requestOriginContext } from "#app/utils/server-context.ts";
import { badInputs } from "#tests/support/bad-inputs.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createBookingService } from "./service.ts";

const URL_BASE = "http://127.0.0.1:9";

describe("booking page actions under hostile inputs", () => {
  let database: TestDatabase;
  let context: RouterContextProvider;

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    const booking = createBookingService({
      db: database.db,
      logger: pino({ level: "silent" }),
      mail: { shopEmail: "atelier@exemple.fr", publicUrl: URL_BASE },
      secret: "h".repeat(40),
      rateLimit: { points: 1_000_000, durationSeconds: 60 },
    });
    context = new RouterContextProvider();
    context.set(bookingServicesContext, booking);
    context.set(requestOriginContext, { ip: "203.0.113.9" });
  });
  afterAll(async () => database?.dispose());

  const count = async (table: string) =>
    (
      (await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n;

  it("answers each with a 4xx and stores nothing", async () => {
    const now = new Date();
    const slot = slotsBetween(DEFAULT_BOOKING_SETTINGS, { from: shopDate(now), to: "2100-01-01" }, [], now)[5]!;
    const valid = {
      slot: slot.start.toISOString(),
      name: "Léa Martin",
      email: "lea@exemple.fr",
      phone: "06 12 34 56 78",
      note: "Écran fissuré.",
      model: "iphone-13",
      repair: "ecran",
    };
    const attempts = badInputs([
      { name: "POST /rendez-vous (page action)", path: "/rendez-vous", caller: "anonymous", valid },
      {
        name: "POST /rendez-vous/gerer (page action)",
        path: "/rendez-vous/gerer?jeton=faux",
        caller: "anonymous",
        valid: { intent: "move", slot: valid.slot },
      },
    ]);
    expect(attempts.length).toBeGreaterThan(100);
    const faults: string[] = [];
    for (const attempt of attempts) {
      const headers: Record<string, string> = { Origin: URL_BASE };
      if (attempt.contentType !== undefined) headers["Content-Type"] = attempt.contentType;
      const request = new Request(`${URL_BASE}${attempt.path}`, { method: "POST", headers, body: attempt.body });
      const run = attempt.path === "/rendez-vous" ? bookAction : manageAction;
      let status: number;
      let body: string;
      try {
        const answer = (await run({ request, context, params: {} } as never)) as { init?: ResponseInit; data: unknown };
        status = answer.init?.status ?? 200;
        body = JSON.stringify(answer.data);
      } catch (thrown) {
        status = thrown instanceof Response ? thrown.status : 500;
        body = String(thrown);
      }
      if (status < 400 || status >= 500 || /\n\s+at /.test(body))
        faults.push(`${attempt.target} — ${attempt.input}: ${status} ${body.slice(0, 160)}`);
    }
    expect(faults).toEqual([]);
    expect(await count("appointments")).toBe(0);
    expect(await count("outbox_messages")).toBe(0);
    // The same body, not corrupted, books: the refusals above come from the corruptions.
    const request = new Request(`${URL_BASE}/rendez-vous`, {
      method: "POST",
      headers: { Origin: URL_BASE, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(valid).toString(),
    });
    const thrown = await bookAction({ request, context, params: {} } as never).then(
      () => null,
      (answer: unknown) => answer,
    );
    expect(thrown instanceof Response && thrown.status).toBe(303);
    expect(await count("appointments")).toBe(1);
  }, 120_000);
});
