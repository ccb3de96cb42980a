// @vitest-environment happy-dom
/**
 * Issue 40, « tabs show counts »: each dashboard tab says what waits in it, as a badge whose words reach screen
 * readers (« Demandes (3 à traiter) »), and nothing when nothing waits. Against a stubbed API and socket: the
 * waiting customers follow the queue's pushes, the appointments to confirm an `agenda:changed` push, and every
 * count is read again when the technician changes view.
 */
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { createRealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DashboardCounts } from "#app/remote-support/dashboard-counts.ts";
import { COUNT_TEXTS } from "#app/remote-support/dashboard-counts.ts";
import type { QueueEntry } from "#app/remote-support/queue.ts";
import { TabCount } from "./tab-count";
import TechnicianDashboard from "./technician-dashboard";

const user = { id: "t", name: "Camille", email: "camille@exemple.fr", isTechnician: true };
const entry = (code: string, userName: string): QueueEntry => ({
  code,
  userName,
  origin: "site",
  system: "Windows",
  waitingSince: new Date().toISOString(),
  conversationMessages: 0,
});

/** The API: `counts()` answers `/api/dashboard/counts` (read at each call); the queue holds Marie and Léa. */
function stubApi(counts: () => DashboardCounts) {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = String(input);
    asked.push(url);
    if (url === "/api/dashboard/counts") return Response.json(counts());
    if (url === "/api/sessions/queue")
      return Response.json({ entries: [entry("ACDE34", "Marie"), entry("FGHJ67", "Léa")], at: "2026-01-05T10:00:00Z" });
    if (url === "/api/sessions/active") return Response.json({ session: null });
    if (url === "/api/sessions/history") return Response.json({ sessions: [] });
    return Response.json({ message: "?" }, { status: 404 });
  });
  return () => asked.filter((url) => url === "/api/dashboard/counts").length;
}

function stubSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket = {
    connected: true,
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
    emit: () => socket,
  };
  const push = (event: string, ...args: unknown[]) =>
    act(() => {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    });
  return { socket: socket as unknown as RealtimeSocket, push };
}

const tab = (name: string) => screen.getByRole("button", { name });

describe("TabCount", () => {
  it("shows the figure, says it in words to screen readers, and shows nothing for 0 or an unknown count", () => {
    const { container, rerender } = render(
      <button type="button">
        Demandes
        <TabCount count={1234} text={COUNT_TEXTS.untreatedRequests} />
      </button>,
    );
    // fr-FR groups thousands with a narrow no-break space.
    expect(screen.getByRole("button", { name: /^Demandes \(1\u202f234 à traiter\)$/u })).toBeInTheDocument();
    expect(container.querySelector("[aria-hidden=true]")).toHaveTextContent(/^1\s234$/u);
    for (const count of [0, null, undefined]) {
      rerender(
        <button type="button">
          Demandes
          <TabCount count={count} text={COUNT_TEXTS.untreatedRequests} />
        </button>,
      );
      expect(screen.getByRole("button", { name: "Demandes" })).toHaveTextContent(/^Demandes$/);
    }
  });

  it("speaks French, singular and plural", () => {
    expect(COUNT_TEXTS.waiting(1)).toBe("1 client en attente");
    expect(COUNT_TEXTS.waiting(2)).toBe("2 clients en attente");
    expect(COUNT_TEXTS.appointmentsToConfirm(1)).toBe("1 à confirmer");
    expect(COUNT_TEXTS.quotesAwaiting(2)).toBe("2 devis en attente");
  });
});

describe("the dashboard's tabs (issue 40)", () => {
  it("count waiting customers, appointments to confirm, untreated requests and quotes waiting for an answer", async () => {
    stubApi(() => ({ appointmentsToConfirm: 1, quotesAwaiting: 2, untreatedRequests: 3 }));
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore(stubSocket().socket)} />);
    expect(await screen.findByRole("button", { name: "Demandes (3 à traiter)" })).toBeInTheDocument();
    expect(tab("Rendez-vous (1 à confirmer)")).toBeInTheDocument();
    expect(tab("Réparations (2 devis en attente)")).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Sessions (2 clients en attente)" })).toBeInTheDocument();
    expect(tab("Assistant")).toHaveTextContent(/^Assistant$/);
  });

  it("say nothing when nothing waits", async () => {
    const counted = stubApi(() => ({ appointmentsToConfirm: 0, quotesAwaiting: 0, untreatedRequests: 0 }));
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore(stubSocket().socket)} />);
    await waitFor(() => expect(counted()).toBe(1));
    await screen.findByRole("button", { name: "Sessions (2 clients en attente)" });
    for (const name of ["Rendez-vous", "Demandes", "Réparations"])
      expect(tab(name)).toHaveTextContent(new RegExp(`^${name}$`));
  });

  it("follow the queue and the agenda live, and are read again at each change of view", async () => {
    let counts: DashboardCounts = { appointmentsToConfirm: 1, quotesAwaiting: 0, untreatedRequests: 3 };
    const counted = stubApi(() => counts);
    const { socket, push } = stubSocket();
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore(socket)} />);
    await screen.findByRole("button", { name: "Sessions (2 clients en attente)" });
    await screen.findByRole("button", { name: "Rendez-vous (1 à confirmer)" });

    await push("queue:updated", { entries: [entry("FGHJ67", "Léa")], at: "2026-01-05T10:00:01Z" });
    expect(tab("Sessions (1 client en attente)")).toBeInTheDocument();
    await push("queue:updated", { entries: [], at: "2026-01-05T10:00:02Z" });
    expect(tab("Sessions")).toHaveTextContent(/^Sessions$/);

    counts = { ...counts, appointmentsToConfirm: 2 };
    await push("agenda:changed", { date: "2026-01-06" });
    expect(await screen.findByRole("button", { name: "Rendez-vous (2 à confirmer)" })).toBeInTheDocument();

    // A request treated elsewhere: the count follows when the technician moves to another view.
    counts = { ...counts, untreatedRequests: 2 };
    const before = counted();
    await userEvent.click(tab("Assistant"));
    await waitFor(() => expect(counted()).toBe(before + 1));
    expect(await screen.findByRole("button", { name: "Demandes (2 à traiter)" })).toBeInTheDocument();
  });
});
