/**
 * Issue 4, "Done when": a visitor's request survives a mail outage and a
 * restart and reaches the shop once. Real server processes, a real SMTP
 * server (smtp-server) brought up only after the restart; on PGlite and, when
 * available, on PostgreSQL (E2E_POSTGRES_URL from the global setup).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createScratchDatabase, freePort } from "#tests/support/postgres.ts";
import { exited, SERVER_ENTRY, startServerProcess } from "#tests/support/server-process.ts";
import { startSmtpSink } from "#tests/support/smtp.ts";

const kinds = ["pglite", ...(process.env.E2E_POSTGRES_URL ? ["postgres"] : [])] as const;

for (const kind of kinds) {
  test(`20 requests during an SMTP outage are all delivered once after a restart (${kind}) @desktop`, async () => {
    test.setTimeout(120_000);
    const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-e2e-outbox-"));
    const scratch = kind === "postgres" ? await createScratchDatabase(process.env.E2E_POSTGRES_URL!) : undefined;
    const smtpPort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SHOP_EMAIL: "atelier@exemple.fr",
      OUTBOX_POLL_MS: "200",
      OUTBOX_RETRY_BASE_MS: "200",
      OUTBOX_RETRY_MAX_MS: "1000",
      FORM_RATE_LIMIT: "1000",
    };
    let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
    let server = await startServerProcess(env);
    try {
      const names = Array.from({ length: 20 }, (_, i) => `Client ${String(i + 1).padStart(2, "0")}`);
      const responses = await Promise.all(
        names.map((name, i) =>
          i % 2 === 0
            ? fetch(`${server.url}/api/contact`, {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ name, email: "client@exemple.fr", message: `Demande de ${name}` }),
              })
            : fetch(`${server.url}/api/quote`, {
                method: "POST",
                headers: { "Content-Type": "application/x-www-form-urlencoded" },
                body: new URLSearchParams({
                  companyName: `Entreprise de ${name}`,
                  contactName: name,
                  email: "client@exemple.fr",
                  phone: "01 23 45 67 89",
                  description: "Un site vitrine",
                  domain: "exemple",
                  emailOption: "mail-5",
                  budget: "1000 €",
                }).toString(),
              }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(names.map(() => 201));

      // Let the worker fail a few times against the missing SMTP server, then restart the server.
      await expect.poll(() => server.output().match(/envoi du mail échoué/g)?.length ?? 0).toBeGreaterThanOrEqual(20);
      expect(await server.stop()).toBe(0);

      sink = await startSmtpSink(smtpPort);
      server = await startServerProcess(env);
      const received = await sink.waitFor(20, 30_000);
      // Give a duplicate every chance to show up.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(received).toHaveLength(20);
      expect(new Set(received.map((mail) => mail.messageId)).size).toBe(20);
      const senders = received.map((mail) => mail.text.match(/^(?:Nom|Contact): (.+)$/m)?.[1]).sort();
      expect(senders).toEqual(names);
      expect(
        received.every(
          (mail) => mail.to.join() === "atelier@exemple.fr" && mail.replyTo.join() === "client@exemple.fr",
        ),
      ).toBe(true);
    } finally {
      await server.stop();
      await sink?.close();
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
    }
  });
}

test("a second server on the same data folder refuses to start, with a French message @desktop", async () => {
  test.setTimeout(60_000);
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-e2e-lock-"));
  const first = await startServerProcess({ DATA_DIR: dataDir });
  try {
    const second = spawn(process.execPath, [SERVER_ENTRY], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    second.stdout!.on("data", (chunk) => (output += chunk));
    second.stderr!.on("data", (chunk) => (output += chunk));
    expect(await exited(second)).toBe(1);
    expect(output).toContain("est déjà utilisé par un autre serveur");
    // The first one still answers.
    expect((await fetch(`${first.url}/healthz`)).ok).toBe(true);
  } finally {
    await first.stop();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
  }
});
