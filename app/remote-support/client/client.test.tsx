// @vitest-environment happy-dom
/**
 * Pure pieces of the remote-support screens (issue 5; spec §2, §4 "Timer",
 * §5 "Connection code", §8): the timer's arithmetic and hook, the code
 * input's upper-casing, the customer's open session, the French messages
 * of better-auth errors and of mail delivery.
 */
import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { openSession, sessionStatusText } from "#app/remote-support/ui/customer-screen.tsx";
import { deliveryText } from "#app/requests/requests-view.tsx";
import { authMessage } from "#app/remote-support/account.ts";
import { codeInputValue } from "./format";
import { elapsedSeconds, useElapsedSeconds } from "./timer";

const session = (overrides: Partial<SessionView>): SessionView => ({
  id: "1",
  code: "ACDEFG",
  status: "disconnected",
  userId: "u",
  technicianId: null,
  technicianFirstName: null,
  startTime: null,
  endTime: null,
  durationSeconds: null,
  createdAt: "2026-01-01T10:00:00.000Z",
  userName: "Alice",
  userEmail: "alice@exemple.fr",
  origin: "site",
  ...overrides,
});

describe("elapsedSeconds", () => {
  it("counts whole seconds from the start time", () => {
    const start = "2026-01-01T10:00:00.000Z";
    expect(elapsedSeconds(start, Date.parse(start) + 59_999)).toBe(59);
    expect(elapsedSeconds(start, Date.parse(start) + 3_600_000)).toBe(3600);
  });
  it("is 0 without a start, with a bad date, or when the clock is behind", () => {
    expect(elapsedSeconds(null, Date.now())).toBe(0);
    expect(elapsedSeconds("pas une date", Date.now())).toBe(0);
    expect(elapsedSeconds("2026-01-01T10:00:05.000Z", Date.parse("2026-01-01T10:00:00.000Z"))).toBe(0);
  });
});

describe("useElapsedSeconds", () => {
  afterEach(() => vi.useRealTimers());
  it("ticks every second while a session runs", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T10:00:03.000Z"));
    const { result, rerender } = renderHook(({ start }) => useElapsedSeconds(start), {
      initialProps: { start: "2026-01-01T10:00:00.000Z" as string | null },
    });
    expect(result.current).toBe(3);
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current).toBe(5);
    rerender({ start: null });
    expect(result.current).toBe(0);
  });
});

describe("codeInputValue", () => {
  it("forces upper case as typed", () => {
    expect(codeInputValue("acd3f")).toBe("ACD3F");
    expect(codeInputValue("")).toBe("");
  });
});

describe("openSession", () => {
  it("picks the newest session that has not ended", () => {
    const ended = session({ id: "2", code: "ENDED1", endTime: "2026-01-01T11:00:00.000Z" });
    const open = session({ id: "1", code: "OPEN11" });
    expect(openSession([ended, open])?.code).toBe("OPEN11");
    expect(openSession([ended])).toBeNull();
  });
  it("says whether a technician is there, by their first name (issue 40)", () => {
    expect(sessionStatusText(session({}))).toBe("En attente d'un technicien…");
    const joined = session({ status: "connected", technicianId: "t", technicianFirstName: "Julien" });
    expect(sessionStatusText(joined)).toBe("Julien, technicien de l'atelier, est connecté");
    // No name known: the former sentence.
    expect(sessionStatusText({ ...joined, technicianFirstName: null })).toBe("Un technicien est connecté");
  });
});

describe("authMessage", () => {
  it("translates better-auth's errors", () => {
    expect(authMessage(401, "INVALID_EMAIL_OR_PASSWORD", "x")).toBe("E-mail ou mot de passe incorrect.");
    expect(authMessage(429, undefined, "x")).toBe("Trop de tentatives. Réessayez dans une minute.");
    expect(authMessage(422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "x")).toBe(
      "Un compte existe déjà avec cette adresse e-mail.",
    );
    expect(authMessage(500, "SOMETHING_ELSE", "repli")).toBe("repli");
  });
});

describe("deliveryText", () => {
  it("tells sent, pending and no mail apart", () => {
    expect(deliveryText(null)).toBe("Aucun e-mail en file");
    expect(deliveryText({ status: "pending", attempts: 2, lastError: "ECONNREFUSED", sentAt: null })).toBe(
      "E-mail en attente (2 tentatives, dernière erreur : ECONNREFUSED)",
    );
    expect(deliveryText({ status: "sent", attempts: 1, lastError: null, sentAt: "2026-01-01T10:00:00.000Z" })).toMatch(
      /^E-mail envoyé le \d{2}\/\d{2}\/2026/,
    );
  });
});
