/**
 * What the /contact and /dev-web route actions answer (issue 4), shared by
 * the actions and their forms: the `SubmissionResult`, its French message,
 * and, when nothing was stored, the submitted values so the page rendered
 * after a JavaScript-free POST can fill the form again.
 */
import { data, type RouterContextProvider } from "react-router";
import {
  HONEYPOT_FIELD,
  messageOf,
  REQUEST_MESSAGES,
  statusOf,
  type RequestKind,
  type SubmissionResult,
} from "~/requests/schemas";
import { formServicesContext, requestOriginContext, requireContext, type FormServices } from "~/utils/server-context";

export type FormActionData = {
  result: SubmissionResult;
  /** `messageOf(kind, result)`: the sentence shown above or in place of the form. */
  message: string;
  /** The submitted fields minus the honeypot; only when nothing was stored. */
  values?: Record<string, string>;
};

/** A form's fields as plain strings (files are ignored; a repeated name keeps its first value). */
export function formFields(formData: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === "string" && !(name in fields)) fields[name] = value;
  }
  return fields;
}

/** The payload of an action's answer; echoes the values only when nothing was stored. */
export function formActionData(kind: RequestKind, result: SubmissionResult, fields: Record<string, string>): FormActionData {
  const payload: FormActionData = { result, message: messageOf(kind, result) };
  if (result.status !== "stored") {
    // The honeypot is never echoed: a robot must not learn that it was noticed, nor a person be shown it.
    const { [HONEYPOT_FIELD]: _honeypot, ...values } = fields;
    payload.values = values;
  }
  return payload;
}

/** The action's answer, with the HTTP status of the result (201, 400, 429 or 503). */
export function formActionResponse(kind: RequestKind, result: SubmissionResult, fields: Record<string, string>) {
  return data(formActionData(kind, result, fields), { status: statusOf(result) });
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
 * The answer to a POST whose body is not a form (issue 13 §7: it reached the
 * error page as a 500): 415 when the content type is neither form type (e.g.
 * JSON: the API at `/api/contact`, `/api/quote` takes it), 400 when it claims
 * to be a form but cannot be read (broken multipart). Nothing is stored; the
 * page shows the French message above an empty form.
 */
export function unreadableFormResponse(kind: RequestKind, request: Request) {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isForm = type === "multipart/form-data" || type === "application/x-www-form-urlencoded";
  const message = isForm ? REQUEST_MESSAGES.unreadableForm : REQUEST_MESSAGES.badFormContentType;
  const result: SubmissionResult = { status: "invalid", fieldErrors: { _form: message } };
  const payload: FormActionData = { result, message, values: {} };
  return data(payload, { status: isForm ? 400 : 415 });
}

/**
 * The whole route action of a request form: reads the posted fields, hands
 * them to the server's form services (validation, honeypot, limit, storage)
 * and answers `formActionResponse`; a body that is not a form gets
 * `unreadableFormResponse` (400/415), never the error page.
 */
export async function submitRequestForm(
  kind: RequestKind,
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
) {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return unreadableFormResponse(kind, request);
  }
  const fields = formFields(formData);
  const services = requireContext<FormServices>(context, formServicesContext);
  const origin = requireContext(context, requestOriginContext);
  const result = await (kind === "contact" ? services.submitContact : services.submitQuote)(fields, origin);
  return formActionResponse(kind, result, fields);
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
