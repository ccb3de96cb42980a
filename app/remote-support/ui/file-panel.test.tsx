// @vitest-environment happy-dom
/**
 * Issue 38 §2, the technician's « Fichiers » panel over a fake socket: a picked file is offered to the customer's
 * app and shown waiting for their answer; the server's refusal is said in French; a file the customer sends is
 * shown with « Recevoir » and « Refuser », and accepting answers the app; the time left in French.
 */
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FILE_MESSAGES, type FileAck } from "#app/remote-support/file-protocol.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { FilePanel, timeLeftText } from "./file-panel";

const TRANSFER = "8f5d7f43-2c8e-4b7a-9a39-4b1f6a7f0c11";

/** A socket answering every `file` message with `answer(message)`, recording them; `push` delivers a server event. */
function fakeSocket(answer: (message: { type: string }) => FileAck = () => ({ ok: true, transferId: TRANSFER })) {
  const sent: { code: string; message: { type: string } }[] = [];
  const listeners = new Map<string, (payload: unknown) => void>();
  const socket = {
    on: (event: string, listener: (payload: unknown) => void) => void listeners.set(event, listener),
    off: (event: string) => void listeners.delete(event),
    timeout: () => ({
      emit: (_event: string, payload: (typeof sent)[number], ack: (error: Error | null, result: FileAck) => void) => {
        sent.push(payload);
        ack(null, answer(payload.message));
      },
    }),
  };
  const push = (event: string, payload: unknown) => act(() => listeners.get(event)?.(payload));
  return { socket: socket as unknown as RealtimeSocket, sent, push };
}

describe("FilePanel", () => {
  it("offers a picked file to the customer's app and waits for their answer", async () => {
    const { socket, sent } = fakeSocket();
    render(<FilePanel code="ACDEFG" socket={socket} customerName="Marie" />);
    const panel = screen.getByRole("region", { name: "Fichiers" });
    const input = panel.querySelector<HTMLInputElement>("input[type=file]")!;
    await userEvent.upload(input, new File(["x".repeat(1_200_000)], "facture.pdf", { type: "application/pdf" }));
    expect(sent[0]).toEqual({ code: "ACDEFG", message: { type: "offer", name: "facture.pdf", size: 1_200_000 } });
    const list = await screen.findByRole("list", { name: "Transferts de fichiers" });
    expect(list).toHaveTextContent("Vers le client : « facture.pdf » (1,2 Mo) — en attente de l'accord du client…");
    expect(within(list).getByRole("button", { name: "Annuler" })).toBeEnabled();
  });

  it("says the server's refusal in French", async () => {
    const { socket } = fakeSocket(() => ({ ok: false, message: FILE_MESSAGES.tooMany }));
    render(<FilePanel code="ACDEFG" socket={socket} customerName="Marie" />);
    const input = screen.getByRole("region", { name: "Fichiers" }).querySelector<HTMLInputElement>("input[type=file]")!;
    await userEvent.upload(input, new File(["abc"], "a.txt"));
    expect(await screen.findByRole("alert")).toHaveTextContent(FILE_MESSAGES.tooMany);
  });

  it("shows a file the customer sends, and « Recevoir » answers the app", async () => {
    const { socket, sent, push } = fakeSocket();
    render(<FilePanel code="ACDEFG" socket={socket} customerName="Marie" />);
    await push("file", {
      code: "ACDEFG",
      message: { type: "offer", transferId: TRANSFER, name: "journal.txt", size: 12_000, from: null },
    });
    const list = screen.getByRole("list", { name: "Transferts de fichiers" });
    expect(list).toHaveTextContent("Marie vous envoie « journal.txt » (12 Ko) — propose de vous l'envoyer");
    expect(within(list).getByRole("button", { name: "Refuser" })).toBeEnabled();
    await userEvent.click(within(list).getByRole("button", { name: "Recevoir" }));
    expect(sent.at(-1)).toEqual({
      code: "ACDEFG",
      message: { type: "answer", transferId: TRANSFER, accept: true, offset: 0 },
    });
  });

  it("says the time left in seconds, then in minutes", () => {
    expect(timeLeftText(8)).toBe("8 s restantes");
    expect(timeLeftText(0)).toBe("1 s restante");
    expect(timeLeftText(300)).toBe("5 min restantes");
  });
});
