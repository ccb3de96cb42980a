/**
 * Issue 13 §7: every hostile input of `tests/support/bad-inputs.ts` sent to
 * the production build (PGlite, fresh data folder), page actions included
 * (POST /contact, /dev-web through React Router). Prints "N bad inputs tried,
 * M answers 5xx" (goal: 0), the answers by status, each 5xx, and what was
 * stored meanwhile as the API shows it (goal: nothing).
 *
 *   node bench/bad-inputs.ts
 *
 * A technician account is created with `scripts/user.ts` before the server
 * starts (the only way to give the role); the customer signs up over HTTP,
 * starts a session, and the technician joins it.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { badInputs, type BadInput } from "#tests/support/bad-inputs.ts";
import { ensureBuild, freePort, root, startServer, stop } from "./lib.ts";
import { signUp } from "./hostile-lib.ts";
import { signIn } from "#tests/support/remote-support.ts";

const TECHNICIAN = { email: "technicien@exemple.fr", password: "mot-de-passe-technicien" };

ensureBuild();
const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-"));
const created = spawnSync(
  process.execPath,
  [
    path.join(root, "scripts", "user.ts"),
    "create",
    "--email",
    TECHNICIAN.email,
    "--name",
    "Camille Tech",
    "--password",
    TECHNICIAN.password,
    "--technician",
  ],
  { cwd: root, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" }, stdio: ["ignore", "ignore", "inherit"] },
);
if (created.status !== 0) throw new Error("compte technicien non créé");

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startServer(port, { DATA_DIR: dataDir, LOG_LEVEL: "fatal" });
try {
  const customer = await signUp(url, "Léa Martin", "lea@exemple.fr", "mot-de-passe-long");
  const technician = await signIn(url, TECHNICIAN.email, TECHNICIAN.password);
  const json = (cookie: string) => ({ "Content-Type": "application/json", Origin: url, Cookie: cookie });
  const session = await fetch(`${url}/api/sessions`, { method: "POST", headers: json(customer), body: "{}" });
  const code = ((await session.json()) as { session: { code: string } }).session.code;
  const join = await fetch(`${url}/api/sessions/join`, {
    method: "POST",
    headers: json(technician),
    body: JSON.stringify({ code }),
  });
  if (!join.ok) throw new Error(`session non rejointe (${join.status})`);

  /** What the API shows of stored data: requests, session events, the assistant conversation, the customer's name. */
  const observe = async () => {
    const get = async (pathname: string, cookie: string) =>
      (await fetch(`${url}${pathname}`, { headers: { Cookie: cookie } })).json() as Promise<
        Record<string, unknown[]> & { user?: { name: string } }
      >;
    return {
      requests: (await get("/api/requests", technician)).requests?.length,
      events: (await get(`/api/sessions/${code}/events`, customer)).events?.length,
      assistant: (await get("/api/assistant/messages", customer)).messages?.length,
      name: (await get("/api/me", customer)).user?.name,
    };
  };

  const send = async (attempt: BadInput) => {
    const headers: Record<string, string> = { Origin: url };
    if (attempt.contentType !== undefined) headers["Content-Type"] = attempt.contentType;
    if (attempt.caller === "customer") headers.Cookie = customer;
    if (attempt.caller === "technician") headers.Cookie = technician;
    // No assistant answer here: a well-formed id that is nobody's (each attempt's body is refused before the lookup).
    const pathname = attempt.path.replace(":code", code).replace(":message", "00000000-0000-4000-8000-000000000000");
    const response = await fetch(`${url}${pathname}`, {
      method: attempt.method,
      headers,
      body: attempt.body,
    });
    const text = await response.text();
    return { status: response.status, text };
  };

  const attempts = badInputs();
  const before = await observe();
  const byStatus = new Map<number, number>();
  const byTarget = new Map<string, Map<number, number>>();
  const faults: string[] = [];
  const started = performance.now();
  for (const attempt of attempts) {
    const answer = await send(attempt).catch((error: Error) => ({ status: 0, text: error.message }));
    byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const statuses = byTarget.get(attempt.target) ?? new Map<number, number>();
    byTarget.set(attempt.target, statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1));
    if (answer.status >= 500 || answer.status === 0)
      faults.push(`  ${answer.status} ${attempt.target} — ${attempt.input}: ${answer.text.slice(0, 120)}`);
  }
  const elapsed = (performance.now() - started) / 1000;
  const after = await observe();

  console.log(
    `${attempts.length} bad inputs tried, ${faults.length} answers 5xx (or no answer), in ${elapsed.toFixed(1)} s`,
  );
  console.log(
    `answers by status: ${[...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(", ")}`,
  );
  for (const [target, statuses] of byTarget) {
    console.log(
      `  ${target}: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(", ")}`,
    );
  }
  for (const fault of faults) console.log(fault);
  console.log(
    `stored meanwhile (before → after): requests ${before.requests} → ${after.requests}, session events ${before.events} → ${after.events}, assistant messages ${before.assistant} → ${after.assistant}, customer's name ${JSON.stringify(before.name)} → ${JSON.stringify(after.name)}`,
  );
} finally {
  await stop(server);
  await rm(dataDir, { recursive: true, force: true });
}
