/**
 * Issue 18 §1 figures.
 *
 * 1. The booking POST (the /rendez-vous form, urlencoded, answered 303 to the
 *    manage page) at a fixed open-loop rate (default 50/s for 15 s, each
 *    request booking its own slot of the default settings, so every one
 *    stores an appointment and three outbox rows): p50/p99 latency in ms
 *    from each request's due time — goal p99 < 50 ms — on a production
 *    server, on the embedded database of `npm start` and on PGlite.
 * 2. The availability query of a month (31 days of the default hours, 30-min
 *    slots) with 1 000 appointments in it — goal < 20 ms — in-process through
 *    the booking service on PGlite and, when one can be started, PostgreSQL:
 *    median and p95 over 200 reads, and the slot computation alone.
 *
 *   node bench/booking.ts [rate=50] [seconds=15]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { dateOfDay, dayNumber, shopDate, slotsBetween } from "#app/booking/slots.ts";
import { openDatabase, type DatabaseHandle } from "#database/connection.ts";
import { appointments } from "#database/schema-booking.ts";
import { createBookingService } from "#server/booking/service.ts";
import { createScratchDatabase, startPostgres } from "#tests/support/postgres.ts";
import { openLoop, percentile } from "./contact-load.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const rate = Number(process.argv[2] ?? 50);
const seconds = Number(process.argv[3] ?? 15);
const ms = (value: number) => value.toFixed(2).replace(".", ",");

/** Fixed-rate POSTs of the booking form, one free slot each, answered 303. */
function postLoad(url: string, slots: string[]) {
  return openLoop(url, rate, seconds, {
    path: "/rendez-vous?modele=iphone-13&reparation=ecran",
    contentType: "application/x-www-form-urlencoded",
    okStatus: 303,
    limit: slots.length,
    body: (i) =>
      new URLSearchParams({
        slot: slots[i]!,
        name: "Léa Martin",
        email: `lea${i}@exemple.fr`,
        // One customer each: the cap of upcoming appointments per phone (issue 28 §5) would stop one phone at 3.
        phone: `06${String(i).padStart(8, "0")}`,
        note: "Écran fissuré, tactile qui ne répond plus en bas.",
        model: "iphone-13",
        repair: "ecran",
        site_web: "",
      }).toString(),
  });
}

async function measurePost(label: string, extraEnv: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-rdv-"));
  const port = await freePort();
  const server = await startServer(port, {
    DATA_DIR: dataDir,
    FORM_RATE_LIMIT: "100000000",
    LOG_LEVEL: "warn",
    ...extraEnv,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    const now = new Date(Date.now() + 60_000);
    const slots = slotsBetween(
      DEFAULT_BOOKING_SETTINGS,
      { from: shopDate(now), to: dateOfDay(dayNumber(shopDate(now)) + 60) },
      [],
      now,
    ).map((slot) => slot.start.toISOString());
    // Warm-up on the last slots, measured run on the first ones.
    await postLoad(url, slots.slice(-30).reverse());
    const result = await postLoad(url, slots.slice(0, -30));
    const counts = [...result.statuses].map(([status, count]) => `${count}×${status}`).join(", ");
    console.log(
      `${label}: ${rate}/s pendant ${seconds} s → p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms, max ${ms(result.max)} ms (${counts})`,
    );
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function measureAvailability(label: string, database: DatabaseHandle) {
  const logger = pino({ level: "silent" });
  const now = new Date();
  const booking = createBookingService({
    db: database.db,
    logger,
    mail: { shopEmail: "atelier@exemple.fr", publicUrl: "http://127.0.0.1" },
    secret: "b".repeat(40),
    rateLimit: { points: 1e9, durationSeconds: 60 },
    now: () => now,
  });
  const first = dateOfDay(dayNumber(shopDate(now)) + 1);
  const last = dateOfDay(dayNumber(first) + 30);
  const settings = { ...DEFAULT_BOOKING_SETTINGS, capacity: 3 };
  const slots = slotsBetween(settings, { from: first, to: last }, [], now);
  const rows = Array.from({ length: 1000 }, (_, index) => {
    const slot = slots[index % slots.length]!;
    return {
      startsAt: slot.start,
      endsAt: slot.end,
      repairLabel: "Écran",
      customerName: `Client ${index}`,
      email: `client${index}@exemple.fr`,
      phone: `06${String(index).padStart(8, "0")}`,
    };
  });
  for (let index = 0; index < rows.length; index += 250)
    await database.db.insert(appointments).values(rows.slice(index, index + 250));
  const timings: number[] = [];
  for (let run = 0; run < 220; run++) {
    const started = performance.now();
    const found = await booking.availability(first, 31);
    if (run >= 20) timings.push(performance.now() - started);
    if (!found || found.days.length !== 31) throw new Error("availability failed");
  }
  timings.sort((a, b) => a - b);
  const pure: number[] = [];
  const taken = rows.map((row) => ({ startsAt: row.startsAt, endsAt: row.endsAt }));
  for (let run = 0; run < 200; run++) {
    const started = performance.now();
    slotsBetween(settings, { from: first, to: last }, taken, now);
    pure.push(performance.now() - started);
  }
  pure.sort((a, b) => a - b);
  console.log(
    `${label}: disponibilités d'un mois (${slots.length} créneaux, 1 000 rendez-vous) → médiane ${ms(percentile(timings, 50))} ms, p95 ${ms(percentile(timings, 95))} ms (calcul seul : médiane ${ms(percentile(pure, 50))} ms)`,
  );
}

ensureBuild();
console.log("1. POST de réservation (formulaire /rendez-vous, 303 vers la page du rendez-vous)");
await measurePost("base embarquée de npm start", {});
await measurePost("PGlite", { EMBEDDED_DATABASE: "pglite" });

console.log("2. Requête de disponibilités");
const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-dispo-"));
const pglite = await openDatabase({ dataDir, embedded: "pglite" });
try {
  await measureAvailability("PGlite", pglite);
} finally {
  await pglite.close();
  await rm(dataDir, { recursive: true, force: true });
}
const postgres = await startPostgres({ durable: true });
if (postgres) {
  const scratch = await createScratchDatabase(postgres.url);
  const handle = await openDatabase({ databaseUrl: scratch.url, dataDir: tmpdir() });
  try {
    await measureAvailability("PostgreSQL", handle);
  } finally {
    await handle.close();
    await scratch.drop();
    await postgres.stop();
  }
} else console.log("PostgreSQL absent : disponibilités mesurées sur PGlite seulement.");
