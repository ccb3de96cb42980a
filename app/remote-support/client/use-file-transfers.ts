/**
 * Issue 38 §2: the technician's file transfers with the session's app as a React hook over `FileTransfers`
 * (`file-transfers.ts`): one per session code while the component is mounted; a file received whole is offered
 * as a download (an object URL clicked once, then revoked).
 */
import { useEffect, useState } from "react";
import { FileTransfers, type TransferView } from "./file-transfers";
import type { RealtimeSocket } from "./session-events";

export type FileTransfersState = {
  transfers: TransferView[];
  /** The transfers' actions, null until the socket is there. */
  actions: FileTransfers | null;
};

/** Starts the browser's download of `file` named `name` (its own copy: nothing leaves the page). */
function download(name: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; the Blob is released with its URL.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The file transfers of session `code` (null: none) over `socket`. */
export function useFileTransfers(code: string | null, socket: RealtimeSocket | null): FileTransfersState {
  const [transfers, setTransfers] = useState<TransferView[]>([]);
  const [actions, setActions] = useState<FileTransfers | null>(null);
  useEffect(() => {
    setTransfers([]);
    if (!code || !socket) return setActions(null);
    const core = new FileTransfers({
      socket,
      code,
      onChange: () => setTransfers(core.views()),
      onReceived: download,
    });
    setActions(core);
    return () => core.destroy();
  }, [code, socket]);
  return { transfers, actions };
}
