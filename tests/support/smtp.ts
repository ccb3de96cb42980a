/**
 * A real SMTP server for tests (`smtp-server` on 127.0.0.1): it accepts every
 * mail and keeps it parsed (postal-mime), so tests check what the shop's
 * inbox would receive. `port` may be fixed to bring a "down" server back up
 * on the address the application was configured with.
 */
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { freePort } from "./postgres.ts";

export type ReceivedMail = {
  messageId: string;
  from: string;
  to: string[];
  replyTo: string[];
  subject: string;
  text: string;
  /** Issue 18: the text of each text/calendar part or attachment (the `.ics` invitation). */
  calendars: string[];
};

export type SmtpSink = {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` mails have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

export async function startSmtpSink(port?: number): Promise<SmtpSink> {
  const chosen = port ?? (await freePort());
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const mail = await PostalMime.parse(Buffer.concat(chunks));
        received.push({
          messageId: mail.messageId ?? "",
          from: mail.from?.address ?? "",
          to: (mail.to ?? []).map((address) => address.address ?? ""),
          replyTo: (mail.replyTo ?? []).map((address) => address.address ?? ""),
          subject: mail.subject ?? "",
          text: mail.text ?? "",
          calendars: mail.attachments
            .filter((attachment) => attachment.mimeType.startsWith("text/calendar"))
            .map((attachment) =>
              typeof attachment.content === "string"
                ? attachment.content
                : new TextDecoder().decode(attachment.content),
            ),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(chosen, "127.0.0.1", () => resolve());
  });
  return {
    port: chosen,
    url: `smtp://127.0.0.1:${chosen}`,
    received,
    waitFor(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(received);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} mail(s) reçu(s) sur ${count} attendus`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
