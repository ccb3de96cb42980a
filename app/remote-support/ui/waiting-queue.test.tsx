// @vitest-environment happy-dom
/**
 * Issue 27, the dashboard's « File d'attente » against a stubbed API and
 * socket: each entry as a technician reads it, live pushes (a late, older
 * one ignored), « Prendre en charge » won or lost (the entry leaves at once,
 * the French refusal is said), and the assistant conversation read when
 * opened.
 */
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { QUEUE_MESSAGES, type QueueEntry } from "#app/remote-support/queue.ts";
import { WaitingQueue } from "./waiting-queue";

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const MARIE: QueueEntry = {
  code: "ACDE34",
  userName: "Marie",
  origin: "app",
  system: "Windows",
  waitingSince: minutesAgo(12),
  conversationMessages: 0,
};
const LEA: QueueEntry = {
  code: "FGHJ67",
  userName: "Léa Martin",
  origin: "site",
  system: null,
  waitingSince: minutesAgo(0),
  conversationMessages: 2,
};

function stubSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket = {
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
  };
  const push = (event: string, ...args: unknown[]) =>
    act(() => {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    });
  return { socket: socket as unknown as RealtimeSocket, push };
}

function stubApi(claims: Record<string, () => Response>) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = String(input);
    if (url === "/api/sessions/queue") return Response.json({ entries: [MARIE, LEA], at: "2026-01-05T10:00:00.000Z" });
    const claim = /^\/api\/sessions\/(\w+)\/claim$/.exec(url);
    if (claim) return claims[claim[1]!]!();
    if (url === `/api/sessions/${LEA.code}/conversation`)
      return Response.json({
        conversation: [
          { role: "user", content: "Mon écran reste noir.", createdAt: "2026-01-05T09:58:00.000Z" },
          { role: "assistant", content: "Un technicien va vous aider.", createdAt: "2026-01-05T09:58:05.000Z" },
        ],
      });
    return Response.json({ message: "?" }, { status: 404 });
  });
}

describe("« File d'attente »", () => {
  it("lists each waiting customer: name, where from, system, waiting time and arrival", async () => {
    stubApi({});
    const { socket } = stubSocket();
    render(<WaitingQueue socket={socket} onJoined={() => {}} />);
    const list = await screen.findByRole("list", { name: "File d'attente" });
    const [marie, lea] = within(list).getAllByRole("listitem");
    expect(marie).toHaveTextContent("1. Marie");
    expect(marie).toHaveTextContent("depuis le logiciel · Windows");
    expect(marie).toHaveTextContent("En attente depuis 12 minutes");
    expect(lea).toHaveTextContent("2. Léa Martin");
    expect(lea).toHaveTextContent("depuis le site · système inconnu");
    expect(lea).toHaveTextContent("En attente depuis moins d'une minute");
    expect(screen.getByRole("status")).toHaveTextContent("2 clients en attente");
  });

  it("follows the pushes, but never goes back to an older snapshot", async () => {
    stubApi({});
    const { socket, push } = stubSocket();
    render(<WaitingQueue socket={socket} onJoined={() => {}} />);
    await screen.findByRole("list", { name: "File d'attente" });
    await push("queue:updated", { entries: [LEA], at: "2026-01-05T10:00:01.000Z" });
    expect(screen.getAllByRole("listitem")).toHaveLength(1);
    expect(screen.getByRole("status")).toHaveTextContent("1 client en attente");
    await push("queue:updated", { entries: [MARIE, LEA], at: "2026-01-05T10:00:00.500Z" });
    expect(screen.getAllByRole("listitem")).toHaveLength(1);
    await push("queue:updated", { entries: [], at: "2026-01-05T10:00:02.000Z" });
    expect(screen.queryByRole("list")).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("Aucun client en attente.");
  });

  it("« Prendre en charge »: a lost race removes the entry and says so; a won one hands the session over", async () => {
    const session = { code: LEA.code, status: "connected" } as SessionView;
    stubApi({
      [MARIE.code]: () => Response.json({ message: QUEUE_MESSAGES.taken }, { status: 409 }),
      [LEA.code]: () => Response.json({ session }),
    });
    const { socket } = stubSocket();
    const onJoined = vi.fn();
    render(<WaitingQueue socket={socket} onJoined={onJoined} />);
    await userEvent.click(await screen.findByRole("button", { name: "Prendre en charge Marie" }));
    // The live region is there, empty, before the answer fills it.
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(QUEUE_MESSAGES.taken));
    expect(screen.queryByRole("button", { name: "Prendre en charge Marie" })).toBeNull();
    expect(onJoined).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Prendre en charge Léa Martin" }));
    await waitFor(() => expect(onJoined).toHaveBeenCalledWith(session));
    expect(screen.getByRole("status")).toHaveTextContent("Aucun client en attente.");
    expect(screen.getByRole("alert")).toBeEmptyDOMElement();
  });

  it("reads the assistant conversation when the technician opens it", async () => {
    stubApi({});
    const { socket } = stubSocket();
    render(<WaitingQueue socket={socket} onJoined={() => {}} />);
    await userEvent.click(await screen.findByText("Conversation avec l'assistant (2 messages)"));
    const messages = await screen.findByRole("list", { name: "Conversation avec l'assistant" });
    expect(
      within(messages)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining("Mon écran reste noir."),
      expect.stringContaining("Un technicien va vous aider."),
    ]);
  });
});
