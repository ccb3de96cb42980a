/**
 * The desktop app of a session as both browsers see it (issue 15): read once
 * (`GET /api/sessions/:code/device`), then kept from the server's
 * `session:device` pushes, and read again after the server connection comes
 * back (pushes may have been missed). `null` until known.
 */
import { useCallback, useEffect, useState } from "react";
import { getDevice } from "#app/remote-support/client/api.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";

export function useDevice(code: string | null, socket: RealtimeSocket | null) {
  const [device, setDevice] = useState<DeviceView | null>(null);

  const reload = useCallback(async () => {
    if (!code) return setDevice(null);
    const result = await getDevice(code);
    if (result.ok) setDevice(result.data.device);
  }, [code]);

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
  }, [socket, code, reload]);

  return { device, setDevice, reload };
}
