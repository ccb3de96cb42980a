// @vitest-environment happy-dom
/**
 * The customer's session panel against a stubbed API and socket: a read of « my sessions » asked before
 * « Démarrer » (the server link connecting) and answered after it must not take the new code off the screen
 * (`fresh-reads.ts`); it is read again instead.
 */
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, it, vi } from "vitest";
import { createRealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import CustomerScreen from "./customer-screen";

const user = { id: "c", name: "Alice", email: "alice@exemple.fr", isTechnician: false };
const created: SessionView = {
  id: "s1",
  code: "ACD34F",
  status: "disconnected",
  userId: "c",
  technicianId: null,
  technicianFirstName: null,
  startTime: null,
  endTime: null,
  durationSeconds: null,
  createdAt: "2026-01-01T09:59:00.000Z",
  userName: "Alice",
  userEmail: "alice@exemple.fr",
  origin: "site",
};

it("keeps the code of a session just started when a read asked before it answers « none »", async () => {
  let releaseFirst!: () => void;
  const held = new Promise<void>((resolve) => (releaseFirst = resolve));
  const mine: SessionView[][] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === "/api/sessions" && init?.method === "POST") return Response.json({ session: created }, { status: 201 });
    if (url === "/api/sessions/mine") {
      // What the server holds when the read is made: nothing before « Démarrer », the new session after.
      const answer = mine.length === 0 ? [] : [created];
      mine.push(answer);
      if (mine.length === 1) await held;
      return Response.json({ sessions: answer });
    }
    return Response.json({ message: "?" }, { status: 404 });
  });
  const listeners = new Map<string, (...args: unknown[]) => void>();
  const socket = {
    connected: true,
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, listener);
      return socket;
    },
    off: () => socket,
    emit: () => socket,
  };
  render(
    <CustomerScreen
      user={user}
      realtime={createRealtimeStore(socket as unknown as RealtimeSocket)}
      initialSessions={[]}
    />,
  );
  // The server link (re)connects: the panel reads « my sessions »; that answer is slow.
  await waitFor(() => expect(listeners.has("connect")).toBe(true));
  act(() => listeners.get("connect")!());
  await userEvent.click(await screen.findByRole("button", { name: "Démarrer une session d'assistance" }));
  expect(await screen.findByRole("group", { name: "Code de session : A C D 3 4 F" })).toBeInTheDocument();
  releaseFirst();
  await waitFor(() => expect(mine).toHaveLength(2));
  await waitFor(() => expect(screen.getByRole("group", { name: "Code de session : A C D 3 4 F" })).toBeInTheDocument());
  expect(screen.queryByRole("button", { name: "Démarrer une session d'assistance" })).toBeNull();
});
