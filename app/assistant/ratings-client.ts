/**
 * Browser calls of the ratings API (issue 17 §4): the customer's
 * `PUT /api/assistant/messages/:id/rating` and the technicians'
 * `GET /api/assistant/ratings`. Like `remote-support/client/api.ts`, every
 * call resolves (never throws) with the data or the French message to show
 * (the server's `{ message }`, else a generic one; status 0 when no answer
 * came). Zod-free, for the dashboard's chunk.
 */
import {
  RATING_MESSAGES,
  RATING_PATHS,
  type RatingFilterParam,
  type RatingResponse,
  type RatingsListResponse,
  type RatingValue,
} from "./ratings-protocol.ts";

/** A call's outcome: the data, or the French `message` to show (`status` 0: no answer came). */
export type RatingCallResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

async function call<T>(path: string, init: RequestInit, fallback: string): Promise<RatingCallResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", ...init });
  } catch {
    return { ok: false, status: 0, message: fallback };
  }
  const payload = (await response.json().catch(() => null)) as { message?: unknown } | null;
  if (response.ok) return { ok: true, data: payload as T };
  const message = typeof payload?.message === "string" ? payload.message : fallback;
  return { ok: false, status: response.status, message };
}

/** Customer: rates answer `messageId`; `comment` undefined keeps the stored one, "" clears it. */
export const rateAnswer = (messageId: string, body: { rating: RatingValue; comment?: string }) =>
  call<RatingResponse>(
    RATING_PATHS.rate(messageId),
    {
      method: "PUT",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    },
    RATING_MESSAGES.saveFailed,
  );

/** Technician: one page of ratings, newest change first; `before` is the previous page's `nextBefore`. */
export const getRatings = (filter: RatingFilterParam, before?: string | null) =>
  call<RatingsListResponse>(
    RATING_PATHS.list({ filter, before }),
    { headers: { Accept: "application/json" } },
    RATING_MESSAGES.listFailed,
  );
