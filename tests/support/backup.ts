/**
 * A shop's worth of data for the backup tests and `bench/backup.ts` (issue 29):
 * accounts with passwords and sign-in sessions, contact and quote requests,
 * appointments, repair tickets with their steps, the agenda settings and a
 * sequence in use; and every table's content, to compare a restored database
 * with the one backed up.
 */
import { sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { accounts, authSessions, contactRequests, quoteRequests, users } from "#database/schema.ts";
import { appointments, shopSettings } from "#database/schema-booking.ts";
import { repairTicketEvents, repairTickets } from "#database/schema-repairs.ts";
import { DEFAULT_BOOKING_SETTINGS } from "#app/booking/settings.ts";
import { TRACKING_CODE_ALPHABET as TRACKING } from "#app/repairs/statuses.ts";

export type ShopSize = { users: number; requests: number; appointments: number; tickets: number };

const BATCH = 500;

async function inBatches<T>(count: number, make: (index: number) => T, insert: (rows: T[]) => Promise<unknown>) {
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => make(start + k));
    await insert(rows);
  }
}

/** An 8-character tracking code for ticket `index` (unique per index). */
function trackingCode(index: number): string {
  let code = "";
  for (let n = index, k = 0; k < 8; k++, n = Math.floor(n / TRACKING.length)) code += TRACKING[n % TRACKING.length];
  return code;
}

/**
 * Inserts `size` of each kind (half the requests contact, half quote; two steps per ticket), with
 * accents, quotes, tabs, backslashes and newlines in the text so COPY's escaping is exercised.
 */
export async function fillShop(db: AppDatabase, size: ShopSize): Promise<void> {
  const day = 86_400_000;
  const base = Date.UTC(2026, 0, 5, 8);
  await inBatches(
    size.users,
    (i) => ({
      id: `user-${i}`,
      name: `Client ${i} « Élodie » O'Brien`,
      email: `client${i}@exemple.fr`,
      role: i === 0 ? ("technician" as const) : ("customer" as const),
    }),
    (rows) => db.insert(users).values(rows),
  );
  await inBatches(
    size.users,
    (i) => ({
      id: `account-${i}`,
      accountId: `user-${i}`,
      providerId: "credential",
      userId: `user-${i}`,
      password: `scrypt$${i}$hash\\avec\\barres`,
    }),
    (rows) => db.insert(accounts).values(rows),
  );
  await inBatches(
    size.users,
    (i) => ({
      id: `session-${i}`,
      token: `token-${i}`,
      userId: `user-${i}`,
      expiresAt: new Date(base + 30 * day),
      userAgent: "Mozilla/5.0\t(X11)",
    }),
    (rows) => db.insert(authSessions).values(rows),
  );
  const contacts = Math.ceil(size.requests / 2);
  await inBatches(
    contacts,
    (i) => ({
      name: `Léa ${i}`,
      email: `lea${i}@exemple.fr`,
      message: `Bonjour,\nmon écran « clignote » depuis mardi.\tMerci ! \\o/ n°${i}`,
      createdAt: new Date(base + i * 60_000),
    }),
    (rows) => db.insert(contactRequests).values(rows),
  );
  await inBatches(
    size.requests - contacts,
    (i) => ({
      companyName: `Société ${i} & fils`,
      contactName: `Jean-Michel ${i}`,
      email: `jm${i}@exemple.fr`,
      phone: `06${String(i).padStart(8, "0")}`,
      description: `Site vitrine\r\navec boutique, ${i} produits`,
      domain: `societe${i}`,
      emailOption: "pro",
      budget: "1000-3000",
      createdAt: new Date(base + i * 60_000),
    }),
    (rows) => db.insert(quoteRequests).values(rows),
  );
  await db.insert(shopSettings).values({ booking: DEFAULT_BOOKING_SETTINGS, bonusReparation: true });
  await inBatches(
    size.appointments,
    (i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      startsAt: new Date(base + i * 1_800_000),
      endsAt: new Date(base + i * 1_800_000 + 1_800_000),
      status: (["requested", "confirmed", "cancelled"] as const)[i % 3],
      modelSlug: "iphone-13",
      modelName: "iPhone 13",
      repairId: "ecran",
      repairLabel: "Écran",
      priceEuros: 129,
      customerName: `Client ${i}`,
      email: `rdv${i}@exemple.fr`,
      phone: `07${String(i).padStart(8, "0")}`,
      note: i % 2 ? null : "Passe après 17 h",
      userId: size.users > 0 ? `user-${i % size.users}` : null,
    }),
    (rows) => db.insert(appointments).values(rows),
  );
  await inBatches(
    size.tickets,
    (i) => ({
      id: `10000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      trackingCode: trackingCode(i),
      appointmentId: i < size.appointments ? `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` : null,
      modelName: "Galaxy S21",
      repairLabel: "Batterie",
      priceEuros: 89,
      conditionNotes: "Rayures au dos ; coque fendue",
      customerName: `Client ${i}`,
      email: `ticket${i}@exemple.fr`,
      phone: `06${String(i).padStart(8, "0")}`,
      userId: size.users > 0 ? `user-${i % size.users}` : null,
      status: i % 4 === 0 ? ("returned" as const) : ("received" as const),
      returnedAt: i % 4 === 0 ? new Date(base + i * day) : null,
    }),
    (rows) => db.insert(repairTickets).values(rows),
  );
  await inBatches(
    size.tickets * 2,
    (i) => ({
      ticketId: `10000000-0000-4000-8000-${String(Math.floor(i / 2)).padStart(12, "0")}`,
      status: i % 2 ? ("returned" as const) : ("received" as const),
      note: i % 2 ? "Rendu au client.\nGarantie 12 mois." : null,
      createdAt: new Date(base + i * 1000),
    }),
    (rows) => db.insert(repairTicketEvents).values(rows),
  );
  // A sequence in use (the Socket.IO adapter's table): its value must come back too.
  await db.execute(sql.raw("insert into socket_io_attachments (payload) values ('\\x00ff'::bytea), ('\\x01'::bytea)"));
}

/** Every `public` table's rows as JSON text, sorted: equal for two databases holding the same data. */
export async function tableContents(db: AppDatabase): Promise<Record<string, string[]>> {
  const tables = (await db.execute(
    sql.raw("select tablename from pg_tables where schemaname = 'public' order by tablename"),
  )) as unknown as { rows: { tablename: string }[] };
  const contents: Record<string, string[]> = {};
  for (const { tablename } of tables.rows) {
    const result = (await db.execute(
      sql.raw(`select row_to_json(t)::text as row from "${tablename}" t order by 1`),
    )) as unknown as { rows: { row: string }[] };
    contents[tablename] = result.rows.map((row) => row.row);
  }
  return contents;
}

/** Next value of the Socket.IO attachments' sequence (consumes one). */
export async function nextAttachmentId(db: AppDatabase): Promise<number> {
  const result = (await db.execute(
    sql.raw("select nextval(pg_get_serial_sequence('socket_io_attachments', 'id'))::integer as id"),
  )) as unknown as { rows: { id: number }[] };
  return Number(result.rows[0]?.id);
}
