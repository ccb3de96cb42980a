// @vitest-environment happy-dom
/**
 * The dashboard against a stubbed API and a stubbed socket:
 * - the join form (spec §2, §5 "Connection code", §8): the code is
 *   upper-cased as typed, the button is disabled while empty and shows
 *   "Connexion..." while busy, and the API's refusal is shown in red as is;
 * - issue 14: a join and the `session:updated` pushes that follow update the
 *   active session and the history without reading `/active` and `/history`
 *   again; a reconnection of the socket does read them again;
 * - issue 26: a session started from the desktop app is joined the same way
 *   and named « … — depuis le logiciel », without an e-mail.
 */
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { createRealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { SERVER_ENDED_TEXT } from "#app/remote-support/client/server-connection.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import TechnicianDashboard from "./technician-dashboard";

const user = { id: "t", name: "Camille", email: "camille@exemple.fr", isTechnician: true };

function stubApi(join: () => Promise<Response>, routes: Record<string, () => Response> = {}) {
  const calls: { url: string; body: unknown }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (routes[url]) return routes[url]();
    if (url === "/api/sessions/active") return Response.json({ session: null });
    if (url === "/api/sessions/history") return Response.json({ sessions: [] });
    if (url === "/api/sessions/join") return join();
    return Response.json({ message: "?" }, { status: 404 });
  });
  return calls;
}

/** A socket that only listens: `push` plays a server event (or "connect") to the dashboard's listeners. */
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

const joined: SessionView = {
  id: "s1",
  code: "ACD34F",
  status: "connected",
  userId: "c",
  technicianId: user.id,
  technicianFirstName: "Camille",
  startTime: "2026-01-01T10:00:00.000Z",
  endTime: null,
  durationSeconds: null,
  createdAt: "2026-01-01T09:59:00.000Z",
  userName: "Alice",
  userEmail: "alice@exemple.fr",
  origin: "site",
};
const ended: SessionView = {
  ...joined,
  status: "disconnected",
  endTime: "2026-01-01T10:01:05.000Z",
  durationSeconds: 65,
};

describe("TechnicianDashboard join form", () => {
  it("upper-cases the code, disables the empty form and shows the refusal in red", async () => {
    let answer!: (response: Response) => void;
    const calls = stubApi(() => new Promise((resolve) => (answer = resolve)));
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore()} />);
    const input = screen.getByLabelText("Code de session");
    const button = screen.getByRole("button", { name: "Se connecter" });
    expect(input).toHaveAttribute("placeholder", "Entrez le code");
    expect(button).toBeDisabled();

    await userEvent.type(input, "acd34f");
    expect(input).toHaveValue("ACD34F");
    expect(button).toBeEnabled();

    await userEvent.click(button);
    expect(screen.getByRole("button", { name: "Connexion..." })).toBeDisabled();
    answer(Response.json({ message: "Session non trouvée" }, { status: 404 }));
    const alert = await screen.findByText("Session non trouvée");
    expect(alert).toHaveClass("text-red-300");
    expect(calls.find((call) => call.url === "/api/sessions/join")?.body).toEqual({ code: "ACD34F" });
    await waitFor(() => expect(screen.getByText("Aucune session pour l'instant.")).toBeInTheDocument());
  });
});

describe("TechnicianDashboard live updates (issue 14)", () => {
  it("applies the join and the pushed session:updated without reading /active and /history again", async () => {
    const calls = stubApi(async () => Response.json({ session: joined }), {
      // The server ended it: its `ended` event has no actor.
      "/api/sessions/ACD34F/events": () =>
        Response.json({ events: [{ id: "e", kind: "ended", actor: null, text: null, at: ended.endTime }] }),
    });
    const lists = () =>
      calls.filter((call) => call.url === "/api/sessions/active" || call.url === "/api/sessions/history").length;
    const { socket, push } = stubSocket();
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore(socket)} />);
    await screen.findByText("Aucune session pour l'instant.");
    expect(lists()).toBe(2);

    await userEvent.type(screen.getByLabelText("Code de session"), "ACD34F");
    await userEvent.click(screen.getByRole("button", { name: "Se connecter" }));
    await screen.findByText("Connecté à la session ACD 34F");
    const history = () => within(screen.getByRole("region", { name: "Historique des sessions" }));
    expect(history().getByText("En cours")).toBeInTheDocument();
    // A site session's picture comes over a peer connection: the viewer asks for its ICE servers.
    await waitFor(() => expect(calls.some((call) => call.url === "/api/sessions/ACD34F/ice-servers")).toBe(true));
    // The push that follows a join, and another technician's or a customer-side session, change nothing.
    push("session:updated", joined);
    push("session:updated", { ...joined, id: "s2", code: "QWERTY", technicianId: "autre" });
    expect(history().getAllByRole("row")).toHaveLength(2);

    push("session:updated", ended);
    await screen.findByText("Aucune session active.");
    expect(history().getByText("1m 5s")).toBeInTheDocument();
    expect(await screen.findByText(SERVER_ENDED_TEXT)).toBeInTheDocument();
    expect(lists()).toBe(2);

    // Back from a lost server connection: pushes may have been missed, everything is read again.
    push("connect");
    await waitFor(() => expect(lists()).toBe(4));
  });
});

describe("TechnicianDashboard, a read answered after a join", () => {
  it("keeps the joined session: the answer asked before the join is read again, not shown", async () => {
    // The first « active session » read, asked as the page opened, answers only after the join.
    let answerFirst!: () => void;
    let activeReads = 0;
    const calls = stubApi(async () => Response.json({ session: joined }), {
      "/api/sessions/active": () => {
        activeReads++;
        return Response.json({ session: activeReads === 1 ? null : joined });
      },
    });
    const fetchStub = vi.mocked(globalThis.fetch);
    const answer = fetchStub.getMockImplementation()!;
    const held = new Promise<void>((resolve) => (answerFirst = resolve));
    let first = true;
    fetchStub.mockImplementation(async (input, init) => {
      if (String(input) === "/api/sessions/active" && first) {
        first = false;
        const response = await answer(input, init);
        await held;
        return response;
      }
      return answer(input, init);
    });
    const { socket } = stubSocket();
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore(socket)} />);
    await userEvent.type(screen.getByLabelText("Code de session"), "ACD34F");
    await userEvent.click(screen.getByRole("button", { name: "Se connecter" }));
    await screen.findByText("Connecté à la session ACD 34F");
    answerFirst();
    // Read again (the second answer knows the join), and the session stays on screen throughout.
    await waitFor(() => expect(calls.filter((call) => call.url === "/api/sessions/active")).toHaveLength(2));
    await waitFor(() => expect(activeReads).toBe(2));
    expect(screen.getByText("Connecté à la session ACD 34F")).toBeInTheDocument();
    expect(screen.queryByText("Aucune session active.")).toBeNull();
  });
});

describe("TechnicianDashboard, a session started from the desktop app (issue 26)", () => {
  it("joins it with the usual form and names it « … — depuis le logiciel », without an e-mail", async () => {
    const fromApp: SessionView = { ...joined, userId: null, userEmail: null, userName: "Marie", origin: "app" };
    const calls = stubApi(async () => Response.json({ session: fromApp }));
    const { socket } = stubSocket();
    render(<TechnicianDashboard user={user} realtime={createRealtimeStore(socket)} />);
    await screen.findByText("Aucune session pour l'instant.");
    await userEvent.type(screen.getByLabelText("Code de session"), "ACD34F");
    await userEvent.click(screen.getByRole("button", { name: "Se connecter" }));
    await screen.findByText("Connecté à la session ACD 34F");
    const history = within(screen.getByRole("region", { name: "Historique des sessions" }));
    // Issue 37 §6: the name in its own direction (`<bdi>`), the words after it outside.
    expect(history.getByText("Marie", { selector: "bdi" }).parentElement).toHaveTextContent(
      /^Marie — depuis le logiciel$/,
    );
    const card = screen.getByRole("heading", { name: "Session active" }).parentElement!;
    expect(within(card).getByText("Marie", { selector: "bdi" }).parentElement).toHaveTextContent(
      /^Marie — depuis le logiciel$/,
    );
    // Issue 37 §10: an app session's picture comes through the server, so no peer connection (and no
    // « Erreur de signalisation ready » in the console): once the remote view's chat has read the record, no
    // ICE servers were asked for.
    await waitFor(() => expect(calls.some((call) => call.url === "/api/sessions/ACD34F/events")).toBe(true));
    expect(calls.some((call) => call.url === "/api/sessions/ACD34F/ice-servers")).toBe(false);
    expect(within(card).getByText("E-mail").nextElementSibling).toHaveTextContent("—");
  });
});
