/**
 * Issue 38 §3, « Reboot and reconnect », in the technician's remote view (`reboot-protocol.ts`): for a session
 * whose desktop app is connected, « Redémarrer l'ordinateur » opens a confirmation; confirmed, the request goes
 * to the app (browser `reboot:request`) and the view says « En attente de l'accord du client… ». What became of
 * it comes back as `reboot:news`: « Le client a refusé le redémarrage. », a failure, or « Redémarrage en cours… »,
 * which stays while the server keeps the app's way back open (`DeviceView.rebootingUntil`: the picture area says
 * it too, `picture-status.ts`); once the app is back the view says so and the picture returns as usual (the
 * customer allows it again). Rendered by `ElevationControl` in the remote view's header, the one place of the
 * header that gets the socket and stays while the app is away (the picture's own bar goes with the picture).
 */
import { Power } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { useNow } from "#app/remote-support/client/use-now.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import {
  REBOOT_MESSAGES,
  rebootPending,
  type RebootAck,
  type RebootNews,
} from "#app/remote-support/reboot-protocol.ts";
import { Modal } from "./modal";

type Props = { code: string; device: DeviceView | null; socket: RealtimeSocket | null };

/** How long the server may take to answer the request, ms. */
const ASK_TIMEOUT_MS = 10_000;

/** What the control says now: a status (`ok`) or an alert. */
type News = { ok: boolean; message: string; waiting?: boolean };

export function RebootControl({ code, device, socket }: Props) {
  const [news, setNews] = useState<News | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // Every second while a restart is under way, so that « Redémarrage en cours… » ends with the ticket without a push.
  const now = useNow(device?.rebootingUntil ? 1_000 : 60_000);
  const rebooting = rebootPending(device?.rebootingUntil, now);
  const wasRebooting = useRef(false);

  useEffect(() => {
    if (!socket) return;
    const onNews = (update: RebootNews) => {
      if (update.code === code) setNews({ ok: update.outcome === "restarting", message: update.message });
    };
    socket.on("reboot:news", onNews);
    return () => {
      socket.off("reboot:news", onNews);
    };
  }, [socket, code]);

  // The way back closed: the app is back, or comes back just after (the ticket is spent before the app's new
  // link is announced: seen under Wine), or the ticket ran out and the app is simply not connected.
  const backAwaited = useRef(false);
  useEffect(() => {
    if (rebooting) {
      wasRebooting.current = true;
      return;
    }
    if (wasRebooting.current) {
      wasRebooting.current = false;
      backAwaited.current = true;
      setNews(null);
    }
    if (backAwaited.current && device?.connected) {
      backAwaited.current = false;
      setNews({ ok: true, message: REBOOT_MESSAGES.back });
    }
  }, [rebooting, device?.connected]);

  if (!device?.paired || (!device.connected && !rebooting)) return null;

  const ask = () => {
    setConfirming(false);
    if (!socket) return;
    setBusy(true);
    socket
      .timeout(ASK_TIMEOUT_MS)
      .emitWithAck("reboot:request", { code })
      .then(
        (ack: RebootAck) => setNews(ack.ok ? { ok: true, message: REBOOT_MESSAGES.asked, waiting: true } : ack),
        () => setNews({ ok: false, message: REBOOT_MESSAGES.notPossible }),
      )
      .finally(() => setBusy(false));
  };

  const status = rebooting ? REBOOT_MESSAGES.restarting : news?.ok ? news.message : "";
  const canAsk = device.connected && !rebooting && !news?.waiting;
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="reboot">
      {canAsk ? (
        <div>
          <Button type="button" variant="secondary" onClick={() => setConfirming(true)} disabled={busy || !socket}>
            <Power aria-hidden="true" className="size-5" />
            {REBOOT_MESSAGES.button}
          </Button>
        </div>
      ) : null}
      <p role="status" className="text-slate-200">
        {status}
      </p>
      <p role="alert" className="font-medium text-amber-200">
        {!rebooting && news && !news.ok ? news.message : ""}
      </p>
      <Modal open={confirming} onClose={() => setConfirming(false)} title={REBOOT_MESSAGES.confirmTitle}>
        <p className="text-slate-200">{REBOOT_MESSAGES.confirm}</p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setConfirming(false)}>
            {REBOOT_MESSAGES.cancel}
          </Button>
          <Button type="button" onClick={ask} data-autofocus>
            <Power aria-hidden="true" className="size-5" />
            {REBOOT_MESSAGES.confirmButton}
          </Button>
        </div>
      </Modal>
    </div>
  );
}
