/**
 * Issue 40, mail honesty: the test mail through the real transports — received by an SMTP server (the fake
 * one of tests/support/smtp.ts), « not configured » with the `.eml` files (nothing written), and a refusal
 * (wrong password, server down) said in French with the mail server's reply and without SMTP_URL's secrets.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "#tests/support/postgres.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp.ts";
import { createMailService, describeSendError } from "./mail-service.ts";
import { createMailTransport } from "./transports.ts";

const logger = pino({ level: "silent" });
const MANAGER = { name: "Sam Gérant", email: "sam.gerant@exemple.fr" };
const PUBLIC_URL = "https://atelier.exemple";
let sink: SmtpSink;
let folder: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  folder = await mkdtemp(path.join(tmpdir(), "atelier-mail-test-"));
});

afterAll(async () => {
  await sink?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const service = (url: string) =>
  createMailService({
    transport: createMailTransport({ kind: "smtp", url, from: "Atelier <atelier@exemple.fr>" }),
    logger,
    publicUrl: PUBLIC_URL,
    smtpUrl: url,
  });

describe("the manager's test mail", () => {
  it("reaches the manager's address through SMTP, and says so", async () => {
    const mail = service(sink.url);
    expect(mail.configured).toBe(true);
    const answer = await mail.sendTest(MANAGER);
    expect(answer).toEqual({
      outcome: "sent",
      message:
        "E-mail de test envoyé à sam.gerant@exemple.fr. Vérifiez qu'il est bien arrivé (pensez au dossier des indésirables).",
    });
    const [received] = await sink.waitFor(1);
    expect(received?.to).toEqual([MANAGER.email]);
    expect(received?.subject).toBe("Atelier Informatique : e-mail de test");
    expect(received?.text).toContain("Bonjour Sam Gérant,");
    expect(received?.text).toContain("l'envoi des e-mails fonctionne");
  });

  it("says plainly that mail is not configured with the .eml files, and writes none", async () => {
    const mail = createMailService({
      transport: createMailTransport({ kind: "file", folder, from: "Atelier <atelier@exemple.fr>" }),
      logger,
      publicUrl: PUBLIC_URL,
    });
    expect(mail.configured).toBe(false);
    const answer = await mail.sendTest(MANAGER);
    expect(answer.outcome).toBe("not-configured");
    expect(answer.message).toMatch(/^L'envoi d'e-mails n'est pas configuré : aucun e-mail de test n'a été envoyé\./);
    expect(await readdir(folder)).toEqual([]);
  });

  it("gives the refusal of a wrong password in French, without the user or the password", async () => {
    const port = await freePort();
    const strict = new SMTPServer({
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth(auth, _session, callback) {
        callback(new Error(`Identifiants refusés pour ${auth.username} / ${auth.password}`));
      },
    });
    await new Promise<void>((resolve) => strict.listen(port, "127.0.0.1", resolve));
    try {
      const answer = await service(`smtp://gerant.boutique:Tr3sS3cret@127.0.0.1:${port}`).sendTest(MANAGER);
      expect(answer.outcome).toBe("failed");
      expect(answer.message).toMatch(
        /^L'e-mail de test n'a pas pu être envoyé : le serveur d'envoi a refusé l'identifiant ou le mot de passe \(vérifiez SMTP_URL\)\. \(réponse : 535/,
      );
      expect(answer.message).not.toContain("Tr3sS3cret");
      expect(answer.message).not.toContain("gerant.boutique");
    } finally {
      await new Promise<void>((resolve) => strict.close(() => resolve()));
    }
  });

  it("says the mail server cannot be reached when nothing listens", async () => {
    const answer = await service(`smtp://127.0.0.1:${await freePort()}`).sendTest(MANAGER);
    expect(answer.outcome).toBe("failed");
    expect(answer.message).toContain("le serveur d'envoi est injoignable (vérifiez l'adresse et le port de SMTP_URL");
  });
});

describe("describeSendError", () => {
  it("takes any URL credentials out of the reply, and names unknown codes plainly", () => {
    const error = Object.assign(new Error("boom"), { code: "EWHAT", response: "550 refusé pour smtp://u:p@relais" });
    expect(describeSendError(error)).toBe(
      "le serveur d'envoi a refusé l'envoi. (réponse : 550 refusé pour smtp://…@relais)",
    );
  });
});
