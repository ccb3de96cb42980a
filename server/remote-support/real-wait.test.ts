import { describe, expect, it } from "vitest";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { withRealWait } from "./http.ts";

describe("a limit's message says the real wait (issue 37 §10)", () => {
  it("replaces « quelques minutes » with what Retry-After says", () => {
    const message = SESSION_MESSAGES.tooManySessions;
    expect(message).toContain("Réessayez dans quelques minutes.");
    expect(withRealWait(message, 3600)).toBe("Trop de sessions créées en peu de temps. Réessayez dans 1 heure.");
    expect(withRealWait(message, 3_900)).toContain("Réessayez dans 1 h 05.");
    expect(withRealWait(message, 7_200)).toContain("Réessayez dans 2 heures.");
    expect(withRealWait(message, 600)).toContain("Réessayez dans 10 minutes.");
    expect(withRealWait(message, 61)).toContain("Réessayez dans 2 minutes.");
    expect(withRealWait(message, 60)).toContain("Réessayez dans 1 minute.");
    expect(withRealWait(message, 30)).toContain("Réessayez dans 30 secondes.");
    expect(withRealWait(message, 1)).toContain("Réessayez dans 1 seconde.");
  });

  it("leaves other messages, and unknown waits, as they are", () => {
    expect(withRealWait("Session non trouvée.", 3600)).toBe("Session non trouvée.");
    expect(withRealWait(SESSION_MESSAGES.tooManySessions, 0)).toBe(SESSION_MESSAGES.tooManySessions);
  });
});
