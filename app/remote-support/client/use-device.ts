/**
 * The desktop app of a session as both browsers see it (issue 15): read once
 * (`GET /api/sessions/:code/device`), then kept from the server's
 * `session:device` pushes, and read again after the server connection comes
 * back (pushes may have been missed). `null` until known. A read's late answer never replaces what a push or
 * an action told since (`fresh-reads.ts`).
 */
import { useCallback, useEffect, useState } from "react";
import { getDevice } from "#app/remote-support/client/api.ts";
import { FreshReads } from "#app/utils/fresh-reads.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";

export function useDevice(code: string | null, socket: RealtimeSocket | null) {
  const [device, setShown] = useState<DeviceView | null>(null);
  // A late answer (of a former session's code, or asked before a push) must not replace newer news.
  const [freshReads] = useState(() => new FreshReads());

  /** Newer state learned without reading (a push, the answer of an action on the app). */
  const setDevice = useCallback(
    (view: DeviceView | null) => {
      freshReads.changed();
      setShown(view);
    },
    [freshReads],
  );

  const reload = useCallback(async (): Promise<void> => {
    const ticket = freshReads.begin();
    if (!code) return setShown(null);
    const result = await getDevice(code);
    const verdict = freshReads.verdict(ticket);
    if (verdict === "again") return reload();
    if (verdict === "apply" && result.ok) setShown(result.data.device);
  }, [code, freshReads]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    if (!socket || !code) return;
    const onDevice = (view: DeviceView & { code?: string }) => {
      if (view.code === undefined || view.code === code) setDevice(view);
    };
    const onConnect = () => void reload();
    socket.on("session:device", onDevice);
    socket.on("connect", onConnect);
    return () => {
      socket.off("session:device", onDevice);
      socket.off("connect", onConnect);
    };
  }, [socket, code, reload, setDevice]);

  return { device, setDevice, reload };
}
