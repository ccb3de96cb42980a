/**
 * Helpers of the hostile-visitor benchmarks (issue 13 §5, §7):
 * `auth-field-bounds.ts` and `bad-inputs.ts` (sign-in: `tests/support/remote-support.ts`). They print figures; they assert nothing.
 */
import { readFile, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";

/**
 * Resets the process's peak resident memory (`VmHWM`) to its current value
 * (Linux: `5` written to `/proc/<pid>/clear_refs`), so the next `memoryMb`
 * peak covers only what happens from now on, not the start-up.
 */
export async function resetPeak(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, "5");
}

/** The process's resident memory now (`VmRSS`) and its peak (`VmHWM`, since start or `resetPeak`), MB. */
export async function memoryMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** Signs up (better-auth) and returns the Cookie header of the new session. */
export async function signUp(url: string, name: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ name, email, password }),
  });
  if (!response.ok) throw new Error(`inscription refusée (${response.status}) : ${await response.text()}`);
  return cookieOf(response);
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * POSTs a JSON body of `bytes` bytes (`{"name":"aaaa…"}`) streamed 1 MB at a
 * time, as a client that does not wait; resolves with the answer's status
 * (0 when the connection closed without one) once the answer has arrived.
 */
export function postLargeName(url: string, cookie: string, bytes: number): Promise<number> {
  const prefix = '{"name":"';
  const suffix = '"}';
  return new Promise((resolve) => {
    const request = httpRequest(`${url}/api/auth/update-user`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": bytes, Origin: url, Cookie: cookie },
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = prefix.length;
    request.write(prefix);
    const pump = () => {
      while (sent + chunk.length < bytes - suffix.length) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end("a".repeat(bytes - suffix.length - sent) + suffix);
    };
    pump();
  });
}
