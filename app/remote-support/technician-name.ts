/**
 * Issue 40 « Customers of remote help »: how a customer learns who helps them. The technician's first name — the
 * first word of their account's name, never their e-mail — is what the server sends to a customer (the session's
 * `technicianFirstName`, the desktop app's `device:state`, the chat's and the files' author), and the one sentence
 * the customer's page and the desktop app say once a technician joined. Pure (zod only): shared by the browser, the
 * server and the app (`desktop/`), which checks what the server sends as untrusted input.
 */
import { z } from "zod";
import { nameString } from "#app/utils/text.ts";

/** Longest first name a customer is shown, in characters (a longer first word is cut). */
export const FIRST_NAME_MAX = 40;

/** The first word of `value`, trimmed, cut to `FIRST_NAME_MAX` characters (whole code points). */
function firstWord(value: string): string {
  const word = value.trim().split(/\s+/u)[0] ?? "";
  return [...word].slice(0, FIRST_NAME_MAX).join("");
}

/**
 * A technician's first name as a customer sees it: the first word of the name given, at most `FIRST_NAME_MAX`
 * characters, a one-line name (`nameString`: no line break, control or invisible direction character).
 */
export const TechnicianFirstName = z.string().max(1_000).transform(firstWord).pipe(nameString().min(1));

/**
 * The first name to show for an account's `name` (« Julien Martin » → « Julien »), or null when there is none
 * (no technician, an empty name, a value that is not a one-line name). Also reads what the server sent.
 */
export function firstNameOf(name: unknown): string | null {
  const checked = TechnicianFirstName.safeParse(name);
  return checked.success ? checked.data : null;
}

/** Said once a technician joined, without end punctuation. */
export const TECHNICIAN_JOINED_UNNAMED = "Un technicien est connecté";

/**
 * What the customer reads once a technician joined: « Julien, technicien de l'atelier, est connecté », or
 * `TECHNICIAN_JOINED_UNNAMED` without a first name. No end punctuation (the page shows it as a status line).
 */
export function technicianJoinedText(firstName: string | null): string {
  return firstName ? `${firstName}, technicien de l'atelier, est connecté` : TECHNICIAN_JOINED_UNNAMED;
}
