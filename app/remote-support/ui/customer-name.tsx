/**
 * Issue 37 §6: a customer's name as the technician's screens show it, isolated from the text around it
 * (`<bdi>`): a right-to-left name (« مريم ») keeps its own direction and cannot turn « — depuis le logiciel »
 * or a position number around. Bidi controls are refused at input (`app/utils/text.ts`); this is for the
 * letters that remain legitimately right-to-left. Issue 26: a session the desktop app started says so,
 * « Marie — depuis le logiciel »; a site session is its name alone.
 */
import type { SessionOrigin } from "#app/remote-support/protocol.ts";

/** `userName` in its own direction, followed for an app session by « — depuis le logiciel ». */
export function CustomerName({ session }: { session: { userName: string; origin: SessionOrigin } }) {
  return (
    <>
      <bdi>{session.userName}</bdi>
      {session.origin === "app" ? " — depuis le logiciel" : ""}
    </>
  );
}
