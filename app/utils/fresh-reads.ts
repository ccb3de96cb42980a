/**
 * Keeps the late answer of a page's read of server state from undoing what the page learned since. Found in a
 * loaded CI run: the technician's « active session » read, asked as the server link connected, answered « none »
 * after the join had succeeded, and the joined session vanished from the dashboard. The same holds for the
 * customer's session (a read answered after « Démarrer ») and a session's desktop app (a read answered after a
 * push).
 *
 * `begin()` before asking; `changed()` whenever the page learns newer state another way (a push, the answer of
 * its own action); with the answer, `verdict(ticket)`: "apply"; "drop" when a newer read is on its way;
 * "again" when something changed meanwhile: the server holds that change now, so a new read sees it.
 */
export type ReadTicket = { readonly read: number; readonly changes: number };
export type ReadVerdict = "apply" | "drop" | "again";

export class FreshReads {
  #reads = 0;
  #changes = 0;

  /** A read is being asked. */
  begin(): ReadTicket {
    return { read: ++this.#reads, changes: this.#changes };
  }

  /** Newer state was learned another way than by reading. */
  changed(): void {
    this.#changes++;
  }

  /** What to do with the answer of the read `ticket` began. */
  verdict(ticket: ReadTicket): ReadVerdict {
    if (ticket.read !== this.#reads) return "drop";
    return ticket.changes === this.#changes ? "apply" : "again";
  }
}
