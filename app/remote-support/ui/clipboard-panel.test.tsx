// @vitest-environment happy-dom
/**
 * Issue 27, the technician's « Presse-papiers » panel over a fake socket and a fake `navigator.clipboard`:
 * « Coller chez le client » sends the clipboard's text and says the outcome; the French errors (permission
 * refused, empty, too long, not allowed now); the customer's text shown as theirs, and « Copier ».
 */
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES, type ClipboardAck } from "#app/remote-support/clipboard-protocol.ts";
import { CLIPBOARD_UI_TEXT } from "#app/remote-support/client/clipboard-transfer.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { ClipboardPanel } from "./clipboard-panel";

const TEXT = "Œuvre « test » — 123 €";

/** A socket answering every paste with `answer`, recording them; `push` delivers a server event. */
function fakeSocket(answer: ClipboardAck = { ok: true }) {
  const pastes: unknown[] = [];
  const listeners = new Map<string, (payload: unknown) => void>();
  const socket = {
    on: (event: string, listener: (payload: unknown) => void) => void listeners.set(event, listener),
    off: (event: string) => void listeners.delete(event),
    timeout: () => ({
      emit: (_event: string, paste: unknown, ack: (error: Error | null, result: ClipboardAck) => void) => {
        pastes.push(paste);
        ack(null, answer);
      },
    }),
  };
  const push = (event: string, payload: unknown) => act(() => listeners.get(event)?.(payload));
  return { socket: socket as unknown as RealtimeSocket, pastes, push };
}

function fakeClipboard(read: () => Promise<string>) {
  const writes: string[] = [];
  vi.stubGlobal("navigator", {
    ...navigator,
    clipboard: { readText: read, writeText: async (text: string) => void writes.push(text) },
  });
  return writes;
}

afterEach(() => vi.unstubAllGlobals());

const pasteButton = () => screen.getByRole("button", { name: "Coller chez le client" });

describe("ClipboardPanel", () => {
  it("sends the technician's clipboard to the customer's computer and says so", async () => {
    fakeClipboard(async () => TEXT);
    const { socket, pastes } = fakeSocket();
    render(<ClipboardPanel code="ACDEFG" socket={socket} customerName="Marie" />);
    expect(screen.getByRole("region", { name: "Presse-papiers" })).toBeInTheDocument();
    await userEvent.click(pasteButton());
    // The live region is there, empty, before the answer fills it.
    await waitFor(() =>
      expect(screen.getByRole("status")).toHaveTextContent("Texte collé chez le client (22 caractères)."),
    );
    expect(pastes).toEqual([{ code: "ACDEFG", text: TEXT }]);
  });

  it("says in French why nothing was sent", async () => {
    const cases: [() => Promise<string>, ClipboardAck, string][] = [
      [() => Promise.reject(new DOMException("refusé", "NotAllowedError")), { ok: true }, CLIPBOARD_UI_TEXT.permission],
      [async () => "", { ok: true }, CLIPBOARD_MESSAGES.empty],
      [async () => "a".repeat(CLIPBOARD_MAX_BYTES + 1), { ok: true }, CLIPBOARD_MESSAGES.tooLarge],
      [async () => TEXT, { ok: false, message: CLIPBOARD_MESSAGES.notAllowed }, CLIPBOARD_MESSAGES.notAllowed],
    ];
    for (const [read, answer, message] of cases) {
      fakeClipboard(read);
      const { socket, pastes } = fakeSocket(answer);
      const view = render(<ClipboardPanel code="ACDEFG" socket={socket} customerName="Marie" />);
      await userEvent.click(pasteButton());
      await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent(message));
      expect(pastes).toHaveLength(answer.ok ? 0 : 1);
      view.unmount();
    }
  });

  it("shows the customer's text as theirs, and copies it", async () => {
    const writes = fakeClipboard(async () => "");
    const { socket, push } = fakeSocket();
    render(<ClipboardPanel code="ACDEFG" socket={socket} customerName="Marie" />);
    push("clipboard:text", { code: "AUTRE1", text: "pas pour cette session" });
    expect(screen.queryByRole("textbox")).toBeNull();
    push("clipboard:text", { code: "ACDEFG", text: TEXT });
    const received = screen.getByRole("textbox", { name: /^Reçu du client \(Marie\) à .* · 22 caractères$/u });
    expect(received).toHaveValue(TEXT);
    expect(screen.getByRole("status")).toHaveTextContent(CLIPBOARD_UI_TEXT.received);
    await userEvent.click(screen.getByRole("button", { name: "Copier" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(CLIPBOARD_UI_TEXT.copied));
    expect(writes).toEqual([TEXT]);
  });
});
