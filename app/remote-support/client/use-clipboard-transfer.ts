/**
 * Issue 27, the technician's copy–paste as a React hook over `clipboard-transfer.ts`: `paste()` (to call from
 * the click: the browser's clipboard needs the gesture) sends the technician's clipboard to the customer's
 * computer; `clipboard:text` pushes of session `code` become `received` (the customer's text, when it came, ms
 * since the epoch); `copy()` puts it on the technician's clipboard. `outcome` is the last French result.
 */
import { useCallback, useEffect, useState } from "react";
import type { ClipboardAck } from "#app/remote-support/clipboard-protocol.ts";
import {
  CLIPBOARD_UI_TEXT,
  copyToTechnician,
  pasteToCustomer,
  PASTE_ACK_TIMEOUT_MS,
  receivedText,
  type ClipboardOutcome,
} from "./clipboard-transfer.ts";
import type { RealtimeSocket } from "./session-events.ts";

export type ClipboardTransferState = {
  /** A paste is on its way. */
  busy: boolean;
  /** The last outcome (paste or copy), in French. */
  outcome: ClipboardOutcome | null;
  /** The customer's last text and when it arrived (ms since the epoch). */
  received: { text: string; at: number } | null;
  paste(): void;
  copy(): void;
};

const browserClipboard = () => (typeof navigator === "undefined" ? undefined : navigator.clipboard);

export function useClipboardTransfer(code: string, socket: RealtimeSocket | null): ClipboardTransferState {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ClipboardOutcome | null>(null);
  const [received, setReceived] = useState<{ text: string; at: number } | null>(null);

  useEffect(() => {
    if (!socket) return;
    const onText = (payload: unknown) => {
      const text = receivedText(code, payload);
      if (text === null) return;
      setReceived({ text, at: Date.now() });
      setOutcome({ ok: true, message: CLIPBOARD_UI_TEXT.received });
    };
    socket.on("clipboard:text", onText);
    return () => void socket.off("clipboard:text", onText);
  }, [socket, code]);

  const paste = useCallback(() => {
    if (busy) return;
    setBusy(true);
    setOutcome({ ok: true, message: CLIPBOARD_UI_TEXT.sending });
    const send = (paste: { code: string; text: string }) =>
      new Promise<ClipboardAck>((resolve, reject) => {
        if (!socket) return reject(new Error("pas de connexion"));
        socket
          .timeout(PASTE_ACK_TIMEOUT_MS)
          .emit("clipboard:paste", paste, (error: Error | null, answer: ClipboardAck) =>
            error ? reject(error) : resolve(answer),
          );
      });
    void pasteToCustomer(code, browserClipboard(), send).then((result) => {
      setOutcome(result);
      setBusy(false);
    });
  }, [busy, code, socket]);

  const copy = useCallback(() => {
    if (!received) return;
    void copyToTechnician(browserClipboard(), received.text).then(setOutcome);
  }, [received]);

  return { busy, outcome, received, paste, copy };
}
