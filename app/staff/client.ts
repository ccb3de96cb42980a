/**
 * Issue 29: the browser's calls to `/api/staff` (table in `protocol.ts`). Each resolves with the data or
 * the server's French message; never throws (offline: « Une erreur est survenue… », status 0).
 */
import {
  STAFF_MESSAGES,
  type InvitationCheckResponse,
  type InvitationResponse,
  type StaffListResponse,
  type StaffMemberResponse,
  type StaffMessageResponse,
} from "./protocol.ts";

export type StaffResult<T> =
  { ok: true; data: T } | { ok: false; status: number; message: string; fieldErrors?: Record<string, string> };

async function call<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<StaffResult<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/staff${path}`, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { Accept: "application/json" }
          : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: STAFF_MESSAGES.failed };
  }
  const payload = (await response.json().catch(() => null)) as
    (T & { message?: unknown; fieldErrors?: Record<string, string> }) | null;
  if (response.ok && payload) return { ok: true, data: payload };
  const message = typeof payload?.message === "string" ? payload.message : STAFF_MESSAGES.failed;
  return { ok: false, status: response.status, message, fieldErrors: payload?.fieldErrors };
}

export const getStaff = () => call<StaffListResponse>("GET", "");
export const inviteTechnician = (email: string) => call<InvitationResponse>("POST", "/invitations", { email });
export const revokeInvitation = (id: string) =>
  call<StaffMessageResponse>("DELETE", `/invitations/${encodeURIComponent(id)}`);
export const setMemberDisabled = (id: string, disabled: boolean) =>
  call<StaffMemberResponse>("POST", `/members/${encodeURIComponent(id)}/${disabled ? "disable" : "enable"}`);
export const sendPasswordReset = (id: string) =>
  call<StaffMessageResponse>("POST", `/members/${encodeURIComponent(id)}/password-reset`);

export const checkInvitation = (token: string) => call<InvitationCheckResponse>("POST", "/invitation/check", { token });
export const acceptInvitation = (fields: { token: string; name: string; password: string }) =>
  call<StaffMessageResponse>("POST", "/invitation/accept", fields);
export const checkSetup = (token: string) => call<object>("POST", "/setup/check", { token });
export const completeSetup = (fields: { token: string; name: string; email: string; password: string }) =>
  call<StaffMessageResponse>("POST", "/setup", fields);
