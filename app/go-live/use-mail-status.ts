/**
 * Issue 40: whether mail leaves the server, for the staff views that would otherwise say « envoyé »
 * (« Demandes », « Boutique »). Read once per page (`GET /api/mail/status`) however many components ask:
 * the answer only changes with the server's configuration, that is with a restart. Null until known, and
 * when it could not be read (asked again by the next component that mounts).
 */
import { useEffect, useState } from "react";
import { getMailStatus } from "./client.ts";
import type { MailStatus } from "./protocol.ts";

let shared: Promise<MailStatus | null> | undefined;

/** The server's answer, shared by every caller of this page (a failed read is forgotten). */
function readOnce(): Promise<MailStatus | null> {
  shared ??= getMailStatus().then((result) => {
    if (result.ok) return result.data;
    shared = undefined;
    return null;
  });
  return shared;
}

/** For tests: forget the page's answer. */
export function forgetMailStatus(): void {
  shared = undefined;
}

export function useMailStatus(): MailStatus | null {
  const [status, setStatus] = useState<MailStatus | null>(null);
  useEffect(() => {
    let current = true;
    void readOnce().then((answer) => current && setStatus(answer));
    return () => {
      current = false;
    };
  }, []);
  return status;
}
