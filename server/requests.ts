/**
 * Accepting contact messages and quote requests (issue 4; spec §3, §5, §7
 * "E-mail sending", §8). `submitRequest` is the one submit path (issue 14),
 * shared by the route actions (forms, with or without JavaScript, through
 * `app/requests/submit.server.ts`) and the JSON/form API (`server/api.ts`).
 *
 * Order of checks: honeypot → validation (nothing counted, nothing stored) →
 * the form key's request if it has one → per-IP rate limit → one atomic
 * statement writing the request and its outbox message. A success is only
 * reported once both rows are committed; the outbox worker is then woken to
 * deliver the mail.
 *
 * Issue 28 "a retried booking must not book twice", for these forms too: a
 * submission may carry a one-time key (`FORM_KEY_FIELD`). The Message-ID of
 * its mail is then derived from the kind, the key and the validated fields,
 * and the outbox's unique Message-ID makes the same submission sent again
 * (a retry after a reset connection, a double click) answer the first
 * request's id instead of storing a second, without counting against the
 * limit. The same key with other fields (the next message typed on the same
 * page) is a new request. Without a key, nothing changes. The key is never
 * logged.
 */
import { createHash, randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import type { z } from "zod";
import { contactRequests, outboxMessages, quoteRequests, type OutboxMail } from "#database/schema.ts";
import type { AppDatabase } from "#database/connection.ts";
import {
  ContactInput,
  FORM_KEY_FIELD,
  FORM_KEY_MESSAGE,
  FormKey,
  HONEYPOT_FIELD,
  QuoteInput,
  validate,
  type FieldErrors,
  type RequestKind,
  type SubmissionResult,
} from "#app/requests/schemas.ts";
import type { FormServices, RequestOrigin } from "#app/utils/server-context.ts";
import { composeContactMail, composeQuoteMail, type MailSettings } from "./outbox/compose.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "./rate-limit.ts";
import { pseudonymizeIp } from "./logger.ts";

/** The validated input of each kind of request. */
type RequestInputs = { contact: ContactInput; quote: QuoteInput };

/** What sets one kind of request apart from the other; everything else is the same path. */
type RequestKindSpec<K extends RequestKind> = {
  schema: z.ZodType<RequestInputs[K]>;
  /** The INSERT of the request's row (the caller adds `returning id`). */
  insert(request: RequestInputs[K]): SQL;
  /** The mail to the shop, written to the outbox with the row. */
  compose(request: RequestInputs[K], mail: MailSettings): OutboxMail;
};

/** The only place a request's `kind` picks its schema, table and mail (issue 14). */
const REQUEST_KINDS: { [K in RequestKind]: RequestKindSpec<K> } = {
  contact: {
    schema: ContactInput,
    insert: (request) =>
      sql`insert into ${contactRequests} (name, email, message) values (${request.name}, ${request.email}, ${request.message})`,
    compose: composeContactMail,
  },
  quote: {
    schema: QuoteInput,
    insert: (request) =>
      sql`insert into ${quoteRequests} (company_name, contact_name, email, phone, description, domain, email_option, budget)
          values (${request.companyName}, ${request.contactName}, ${request.email}, ${request.phone},
                  ${request.description}, ${request.domain}, ${request.emailOption}, ${request.budget})`,
    compose: composeQuoteMail,
  },
};

/**
 * Validates `input` with the schema of `kind`; when valid, the request's
 * INSERT and its outbox mail, ready to store. Generic so that each kind's
 * schema, insert and mail are checked against the same input type.
 */
function prepare<K extends RequestKind>(
  kind: K,
  input: unknown,
  mail: MailSettings,
):
  | { ok: true; insert: SQL; mail: OutboxMail; messageId: string; keyed: boolean }
  | { ok: false; fieldErrors: FieldErrors } {
  const spec: RequestKindSpec<K> = REQUEST_KINDS[kind];
  const checked = validate(spec.schema, input);
  if (!checked.ok) return checked;
  const key = FormKey.safeParse(isRecord(input) ? input[FORM_KEY_FIELD] : undefined);
  if (!key.success) return { ok: false, fieldErrors: { [FORM_KEY_FIELD]: FORM_KEY_MESSAGE } };
  return {
    ok: true,
    insert: spec.insert(checked.data),
    mail: spec.compose(checked.data, mail),
    messageId: key.data
      ? keyedMessageId(mail.messageIdDomain, kind, key.data, checked.data)
      : newMessageId(mail.messageIdDomain),
    keyed: key.data !== null,
  };
}

/**
 * The Message-ID of a keyed submission (issue 28): `<f-` + 32 base64url characters of the SHA-256 of the
 * kind, the form key and the validated fields + `@domain>`. The same submission gives the same id, so the
 * outbox's unique constraint recognises it; nothing of the fields can be read back from it.
 */
export function keyedMessageId(domain: string, kind: RequestKind, key: string, fields: unknown): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([kind, key, fields]))
    .digest("base64url")
    .slice(0, 32);
  return `<f-${digest}@${domain}>`;
}

/** Whether `error` (or a cause: drizzle wraps driver errors) is PostgreSQL's unique violation. */
function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause)
    if ((current as { code?: unknown }).code === "23505") return true;
  return false;
}

export type RequestServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  mail: MailSettings;
  /**
   * Accepted requests per IP and window (`FORM_RATE_LIMIT`, `FORM_RATE_WINDOW_S`), counted in `store`
   * (`services.rateLimits`: shared through PostgreSQL, issue 13 §10; default this process's memory).
   */
  rateLimit: { points: number; durationSeconds: number; store?: RateLimitStore };
  /** Called after a commit, to deliver without waiting for the next poll. */
  onStored?: () => void;
};

/**
 * Builds the `FormServices` the router context and the API use:
 * `submitRequest(kind, input, origin)` never throws (a storage failure is
 * `{ status: "failed" }`).
 */
export function createRequestService(options: RequestServiceOptions): FormServices {
  const { db, logger, mail } = options;
  const limiter = createRateLimiter(options.rateLimit.store ?? MEMORY_STORE, {
    name: "form-ip",
    points: options.rateLimit.points,
    durationSeconds: options.rateLimit.durationSeconds,
  });

  /** A filled honeypot is refused before anything else, so a robot learns nothing from validation messages. */
  async function refuseSpam(
    kind: RequestKind,
    input: unknown,
    origin: RequestOrigin,
  ): Promise<SubmissionResult | null> {
    if (isRecord(input) && typeof input[HONEYPOT_FIELD] === "string" && input[HONEYPOT_FIELD].trim() !== "") {
      // Counted too, so a robot cannot probe indefinitely; a store failure changes nothing to the refusal.
      await consume(limiter, origin.ip).catch(() => undefined);
      logger.warn({ kind, ipHash: pseudonymizeIp(origin.ip) }, "demande refusée : champ piège rempli");
      return { status: "spam" };
    }
    return null;
  }

  /** Only valid requests count: a visitor correcting a field is not penalised. */
  async function rateLimit(kind: RequestKind, origin: RequestOrigin): Promise<SubmissionResult | null> {
    let outcome;
    try {
      outcome = await consume(limiter, origin.ip);
    } catch (error) {
      // The counters' table cannot be reached: the request could not be stored either.
      logger.error({ err: error, kind }, "demande non enregistrée : limite de demandes illisible");
      return { status: "failed" };
    }
    if (outcome.allowed) return null;
    logger.warn({ kind, ipHash: pseudonymizeIp(origin.ip) }, "demande refusée : trop de demandes depuis cette adresse");
    return { status: "rate-limited", retryAfterSeconds: outcome.retryAfterSeconds };
  }

  /**
   * Writes the request and its outbox message with ONE statement (a
   * data-modifying CTE): it commits both rows or neither, like a
   * transaction, in one round trip instead of four (BEGIN, two INSERTs,
   * COMMIT): the form's latency is mostly this write.
   */
  async function store(
    kind: RequestKind,
    insertRequest: SQL,
    outboxMail: OutboxMail,
    messageId: string,
  ): Promise<SubmissionResult> {
    try {
      const result = (await db.execute(sql`
        with request as (${insertRequest} returning id)
        insert into ${outboxMessages} (message_id, request_kind, request_id, mail)
        select ${messageId}, ${kind}, request.id, ${JSON.stringify(outboxMail)}::jsonb from request
        returning request_id`)) as unknown as { rows: { request_id: string }[] };
      const id = result.rows[0]!.request_id;
      logger.info({ kind, id }, "demande enregistrée");
      options.onStored?.();
      return { status: "stored", id };
    } catch (error) {
      // The same keyed submission stored meanwhile (sent twice at once): the statement stored nothing.
      const earlier = isUniqueViolation(error) ? await storedAs(messageId).catch(() => null) : null;
      if (earlier) return earlier;
      logger.error({ err: error, kind }, "demande non enregistrée : la base de données a refusé l'écriture");
      return { status: "failed" };
    }
  }

  /** The request whose mail has Message-ID `messageId`, as the first submission answered it. */
  async function storedAs(messageId: string): Promise<SubmissionResult | null> {
    const result = (await db.execute(
      sql`select request_id from ${outboxMessages} where message_id = ${messageId}`,
    )) as unknown as { rows: { request_id: string }[] };
    const id = result.rows[0]?.request_id;
    return id ? { status: "stored", id } : null;
  }

  return {
    async submitRequest(kind, input, origin) {
      const spam = await refuseSpam(kind, input, origin);
      if (spam) return spam;
      const prepared = prepare(kind, input, mail);
      if (!prepared.ok) return { status: "invalid", fieldErrors: prepared.fieldErrors };
      // Sent again: the first result, before the limit (a retry is not a new request).
      if (prepared.keyed) {
        try {
          const earlier = await storedAs(prepared.messageId);
          if (earlier) return earlier;
        } catch (error) {
          logger.error({ err: error, kind }, "demande non enregistrée : la base de données est illisible");
          return { status: "failed" };
        }
      }
      const limited = await rateLimit(kind, origin);
      if (limited) return limited;
      return store(kind, prepared.insert, prepared.mail, prepared.messageId);
    },
  };
}

/** A fresh RFC 5322 Message-ID, e.g. `<3f2c…@atelier.example>`; stored, so every retry reuses it. */
export function newMessageId(domain: string): string {
  return `<${randomUUID()}@${domain}>`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
