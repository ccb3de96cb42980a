/**
 * Issue 36 §4, « Past UAC », in the technician's remote view (`elevation-protocol.ts`): a Windows app running
 * without administrator rights is said so (« Le logiciel fonctionne sans droits d'administrateur »), and while it
 * is paired and connected « Relancer en administrateur » asks the customer, in their app, to relaunch it so
 * (browser `device:elevate`). What became of the request comes back as `device:elevation` (declined, UAC refused,
 * failed, started) and is shown as the server words it, in French; refusals as alerts. Once the relaunched app is
 * back elevated, the button gives way to « Le logiciel fonctionne avec les droits d'administrateur. ».
 * Issue 38 §3: followed by « Redémarrer l'ordinateur » (`reboot-control.tsx`), for an app on any system.
 */
import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES, type ElevateAck } from "#app/remote-support/elevation-protocol.ts";
import { RebootControl } from "./reboot-control";

type Props = { code: string; device: DeviceView | null; socket: RealtimeSocket | null };

/** How long the server may take to answer the request, ms. */
const ASK_TIMEOUT_MS = 10_000;

/** Whether the app is a Windows one known to run without administrator rights (older apps say nothing). */
export function runsUnelevated(device: DeviceView | null): boolean {
  return device?.paired === true && device.platform === "windows" && device.elevated === false;
}

/** The app's administrator rights (Windows), then issue 38 §3's restart of the computer. */
export function ElevationControl(props: Props) {
  return (
    <>
      <AdministratorControl {...props} />
      <RebootControl {...props} />
    </>
  );
}

function AdministratorControl({ code, device, socket }: Props) {
  const [news, setNews] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!socket) return;
    const onNews = (update: { code: string; outcome: string; message: string }) => {
      if (update.code === code) setNews({ ok: update.outcome === "started", message: update.message });
    };
    socket.on("device:elevation", onNews);
    return () => {
      socket.off("device:elevation", onNews);
    };
  }, [socket, code]);

  // The relaunched app is back elevated: the request is over, its last news no longer applies.
  useEffect(() => {
    if (device?.elevated === true) setNews(null);
  }, [device?.elevated]);

  if (device?.paired && device.platform === "windows" && device.elevated === true)
    return (
      <p role="status" className="text-sm text-slate-200" data-testid="elevation">
        {ELEVATION_MESSAGES.elevated}
      </p>
    );
  if (!runsUnelevated(device)) return null;

  const ask = () => {
    if (!socket) return;
    setBusy(true);
    socket
      .timeout(ASK_TIMEOUT_MS)
      .emitWithAck("device:elevate", { code })
      .then(
        (ack: ElevateAck) => setNews(ack.ok ? { ok: true, message: ELEVATION_MESSAGES.asked } : ack),
        () => setNews({ ok: false, message: ELEVATION_MESSAGES.notPossible }),
      )
      .finally(() => setBusy(false));
  };

  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="elevation">
      <p role="status" className="font-medium text-amber-200">
        {ELEVATION_MESSAGES.notElevated}
        {" : "}
        les programmes lancés en administrateur et les fenêtres d'autorisation de Windows vous sont inaccessibles.
      </p>
      {device?.connected ? (
        <div>
          <Button type="button" variant="secondary" onClick={ask} disabled={busy || !socket}>
            <ShieldCheck aria-hidden="true" className="size-5" />
            {ELEVATION_MESSAGES.button}
          </Button>
        </div>
      ) : null}
      <p role="status" className="text-slate-200">
        {news?.ok ? news.message : ""}
      </p>
      <p role="alert" className="font-medium text-amber-200">
        {news && !news.ok ? news.message : ""}
      </p>
    </div>
  );
}
