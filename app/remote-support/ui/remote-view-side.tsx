/**
 * The column beside the customer's picture in the technician's remote view (`remote-view.tsx`), moved here when
 * issue 38 §4 brought it past the view's length: the panels that follow the session rather than the picture, top
 * to bottom: why the customer called (issue 18 §4), « Informations de l'ordinateur » (issue 38 §4), copy–paste
 * while control is allowed (issue 27), files while the app is connected (issue 38 §2), and the chat (issue 38 §1).
 */
import { SessionConversationView } from "#app/assistant/session-conversation-view.tsx";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { ClipboardPanel } from "./clipboard-panel";
import { ComputerFactsPanel } from "./computer-facts";
import { FilePanel } from "./file-panel";
import { SessionChat } from "./session-chat";

type Props = {
  session: SessionView;
  /** The technician's socket (the chat, copy–paste and files travel on it). */
  socket: RealtimeSocket | null;
  /** The customer's desktop app, paired or not. */
  device: DeviceView | null;
};

/** The remote view's side column for `session` (see the module comment). */
export function RemoteViewSide({ session, socket, device }: Props) {
  return (
    <div className="flex min-h-0 flex-col gap-4 lg:w-80">
      {/* Issue 18 §4: why the customer called, in view while the technician works. */}
      <SessionConversationView code={session.code} collapsible />
      {/* Issue 38 §4: what the app said of the computer, with the customer's consent. */}
      <ComputerFactsPanel code={session.code} device={device} />
      {/* Issue 27: copy–paste with the customer's computer, only while control is allowed. */}
      {device?.controlActive ? (
        <ClipboardPanel code={session.code} socket={socket} customerName={session.userName} />
      ) : null}
      {/* Issue 38 §2: files both ways with the customer's app. */}
      {device?.connected ? <FilePanel code={session.code} socket={socket} customerName={session.userName} /> : null}
      <SessionChat code={session.code} side="technician" socket={socket} otherName={session.userName} />
    </div>
  );
}
