/**
 * Issue 40: the browser's calls of `protocol.ts` (mail status, test mail, checklist). Each resolves with the
 * data or the server's French message; never throws (offline: status 0 and `MAIL_MESSAGES.failed`).
 */
import {
  GO_LIVE_PATH,
  MAIL_MESSAGES,
  MAIL_STATUS_PATH,
  TEST_MAIL_PATH,
  type GoLiveChecklist,
  type MailStatus,
  type TestMailAnswer,
} from "./protocol.ts";

export type GoLiveResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

async function call<T>(method: "GET" | "POST", path: string, accepted: (status: number) => boolean) {
  let response: Response;
  try {
    response = await fetch(path, { method, credentials: "same-origin", headers: { Accept: "application/json" } });
  } catch {
    return { ok: false, status: 0, message: MAIL_MESSAGES.failed } satisfies GoLiveResult<T>;
  }
  const payload = (await response.json().catch(() => null)) as (T & { message?: unknown }) | null;
  if (accepted(response.status) && payload) return { ok: true, data: payload } satisfies GoLiveResult<T>;
  const message = typeof payload?.message === "string" ? payload.message : MAIL_MESSAGES.failed;
  return { ok: false, status: response.status, message } satisfies GoLiveResult<T>;
}

/** Whether mail leaves the server. */
export const getMailStatus = (): Promise<GoLiveResult<MailStatus>> =>
  call<MailStatus>("GET", MAIL_STATUS_PATH, (status) => status === 200);

/**
 * Sends the test mail to the signed-in manager. Sent (200), not configured (409) and refused by the mail
 * server (502) are all answers to show; only 4xx refusals (401, 403, 429) and network failures are errors.
 */
export const sendTestMail = (): Promise<GoLiveResult<TestMailAnswer>> =>
  call<TestMailAnswer>("POST", TEST_MAIL_PATH, (status) => [200, 409, 502].includes(status));

/** The « Mise en ligne » checklist. */
export const getGoLiveChecklist = (): Promise<GoLiveResult<GoLiveChecklist>> =>
  call<GoLiveChecklist>("GET", GO_LIVE_PATH, (status) => status === 200);
