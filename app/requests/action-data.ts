/**
 * What the /contact and /dev-web route actions answer (issue 4), the contract
 * between the actions (`submit.server.ts`) and their forms: the
 * `SubmissionResult`, its French message and, when nothing was stored, the
 * submitted values so the page rendered after a JavaScript-free POST can fill
 * the form again. Also the routes' `clientAction`, which runs in the browser.
 */
import { HONEYPOT_FIELD, messageOf, type RequestKind, type SubmissionResult } from "./schemas.ts";

export type FormActionData = {
  result: SubmissionResult;
  /** `messageOf(kind, result)`: the sentence shown above or in place of the form. */
  message: string;
  /** The submitted fields minus the honeypot; only when nothing was stored. */
  values?: Record<string, string>;
};

/** The payload of an action's answer; echoes the values only when nothing was stored. */
export function formActionData(
  kind: RequestKind,
  result: SubmissionResult,
  fields: Record<string, string>,
): FormActionData {
  const payload: FormActionData = { result, message: messageOf(kind, result) };
  if (result.status !== "stored") {
    // The honeypot is never echoed: a robot must not learn that it was noticed, nor a person be shown it.
    const { [HONEYPOT_FIELD]: _honeypot, ...values } = fields;
    payload.values = values;
  }
  return payload;
}

/**
 * What a `clientAction` returns when the server could not be reached or did
 * not answer with the action's data (network error, proxy error page, crash):
 * the form shows its failure message instead of the route's error page.
 */
export function unreachableActionData(kind: RequestKind): FormActionData {
  const result: SubmissionResult = { status: "failed" };
  return { result, message: messageOf(kind, result) };
}

/**
 * A `clientAction` for a request form: once hydrated, an unreachable server
 * or an answer that is not the action's data (e.g. a proxy's error page)
 * becomes the form's failure message, not the route's error page.
 */
export function clientActionFor(kind: RequestKind) {
  return async ({ serverAction }: { serverAction: () => Promise<unknown> }): Promise<FormActionData> => {
    try {
      // The server action answers `formActionData` (see `submitRequestForm`).
      return (await serverAction()) as FormActionData;
    } catch {
      return unreachableActionData(kind);
    }
  };
}
