/**
 * The route action of both request forms (issue 4; moved out of
 * `components/` by issue 14): reads the posted fields and hands them to the
 * server's one submit path, `FormServices.submitRequest` (validation,
 * honeypot, limit, storage: `server/requests.ts`), reached through the router
 * context so that `app/` never imports `server/`.
 *
 * `.server` on purpose: only the routes' `action` uses it, and React Router
 * refuses it in a client bundle.
 */
import { data, type RouterContextProvider } from "react-router";
import { formServicesContext, requestOriginContext, requireContext } from "#app/utils/server-context.ts";
import { formActionData, type FormActionData } from "./action-data.ts";
import { REQUEST_MESSAGES, statusOf, type RequestKind, type SubmissionResult } from "./schemas.ts";

/** A form's fields as plain strings (files are ignored; a repeated name keeps its first value). */
export function formFields(formData: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === "string" && !(name in fields)) fields[name] = value;
  }
  return fields;
}

/**
 * The answer to a POST whose body is not a form (issue 13 §7: it reached the
 * error page as a 500): 415 when the content type is neither form type (e.g.
 * JSON: the API at `/api/contact`, `/api/quote` takes it), 400 when it claims
 * to be a form but cannot be read (broken multipart). Nothing is stored; the
 * page shows the French message above an empty form.
 */
/**
 * Why a page action could not read its form (`request.formData()` threw): 400 for a form body that
 * cannot be parsed, 415 for a body of another type; the message is French. Also used by /soft-assist.
 */
export function unreadableForm(request: Request): { status: 400 | 415; message: string } {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const isForm = type === "multipart/form-data" || type === "application/x-www-form-urlencoded";
  return isForm
    ? { status: 400, message: REQUEST_MESSAGES.unreadableForm }
    : { status: 415, message: REQUEST_MESSAGES.badFormContentType };
}

function unreadableFormResponse(request: Request) {
  const { status, message } = unreadableForm(request);
  const isForm = status === 400;
  const result: SubmissionResult = { status: "invalid", fieldErrors: { _form: message } };
  const payload: FormActionData = { result, message, values: {} };
  return data(payload, { status: isForm ? 400 : 415 });
}

/**
 * The whole route action of a request form of `kind`: answers
 * `formActionData` with the HTTP status of the result (201, 400, 429 or 503);
 * a body that is not a form gets a French 400/415, never the error page.
 * @throws Error when the server did not put the form services in the context (a wiring bug).
 */
export async function submitRequestForm(
  kind: RequestKind,
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
) {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return unreadableFormResponse(request);
  }
  const fields = formFields(formData);
  const services = requireContext(context, formServicesContext);
  const result = await services.submitRequest(kind, fields, requireContext(context, requestOriginContext));
  return data(formActionData(kind, result, fields), { status: statusOf(result) });
}
