/**
 * Browser calls of the staff repairs API (issue 18 §2, `server/repairs/api.ts`).
 * Like `assistant/ratings-client.ts`, every call resolves (never throws)
 * with the data or the French message to show (the server's `{ message }`
 * and `fieldErrors`, else a generic one; status 0 when no answer came).
 * Zod-free, for the dashboard's chunk.
 */
import {
  REPAIR_MESSAGES,
  REPAIR_PATHS,
  type CustomerRepairsResponse,
  type RepairListResponse,
  type RepairTicketResponse,
} from "./protocol.ts";

/** A call's outcome: the data, or the French `message` (and per-field messages) to show. */
export type RepairCallResult<T> =
  { ok: true; data: T } | { ok: false; status: number; message: string; fieldErrors: Partial<Record<string, string>> };

async function call<T>(path: string, init: RequestInit, fallback: string): Promise<RepairCallResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    return { ok: false, status: 0, message: fallback, fieldErrors: {} };
  }
  const payload = (await response.json().catch(() => null)) as {
    message?: unknown;
    fieldErrors?: Partial<Record<string, string>>;
  } | null;
  if (response.ok) return { ok: true, data: payload as T };
  const message = typeof payload?.message === "string" ? payload.message : fallback;
  return { ok: false, status: response.status, message, fieldErrors: payload?.fieldErrors ?? {} };
}

const postJson = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { Accept: "application/json", "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** Open tickets (or all with `all`), newest change first. */
export const listRepairs = (all = false) =>
  call<RepairListResponse>(
    `${REPAIR_PATHS.list}${all ? "?etat=toutes" : ""}`,
    { headers: { Accept: "application/json" } },
    REPAIR_MESSAGES.listFailed,
  );

/** One ticket with its steps, by its id or (issue 40) its tracking code. */
export const getRepair = (idOrCode: string) =>
  call<RepairTicketResponse>(
    REPAIR_PATHS.ticket(idOrCode),
    { headers: { Accept: "application/json" } },
    REPAIR_MESSAGES.failed,
  );

/**
 * Opens a ticket: `{ appointmentId }` (from the agenda; model, repair and
 * contact are copied from the appointment) or a walk-in's fields.
 */
export const openRepair = (body: Record<string, unknown>) =>
  call<RepairTicketResponse>(REPAIR_PATHS.create, postJson(body), REPAIR_MESSAGES.failed);

/** Moves a ticket to `status` with an optional note for the customer. */
export const changeRepairStatus = (id: string, body: { status: string; note?: string }) =>
  call<RepairTicketResponse>(REPAIR_PATHS.status(id), postJson(body), REPAIR_MESSAGES.failed);

/** Enters a quote (description, whole euros as typed); the ticket becomes "Devis à valider". */
export const enterRepairQuote = (id: string, body: { description: string; amountEuros: string; note?: string }) =>
  call<RepairTicketResponse>(REPAIR_PATHS.quote(id), postJson(body), REPAIR_MESSAGES.failed);

/** Records the customer's answer to the pending quote, given to staff by phone or at the counter. */
export const recordRepairDecision = (id: string, decision: "accepted" | "refused") =>
  call<RepairTicketResponse>(REPAIR_PATHS.decision(id), postJson({ decision }), REPAIR_MESSAGES.failed);

/** Issue 40: replaces « État au dépôt » and « Accessoires laissés » (blank clears) as typed. */
export const saveRepairDropOff = (id: string, body: { conditionNotes: string; accessories: string }) =>
  call<RepairTicketResponse>(REPAIR_PATHS.dropOff(id), postJson(body), REPAIR_MESSAGES.failed);

/** The signed-in customer's repairs (issue 18 §2, "in their account"). */
export const myRepairs = () =>
  call<CustomerRepairsResponse>(REPAIR_PATHS.mine, { headers: { Accept: "application/json" } }, REPAIR_MESSAGES.failed);

/** Adds the repair of `code` to the account, proven by the ticket's e-mail or phone (`contact`). */
export const addMyRepair = (code: string, contact: string) =>
  call<CustomerRepairsResponse>(REPAIR_PATHS.mine, postJson({ code, contact }), REPAIR_MESSAGES.failed);
