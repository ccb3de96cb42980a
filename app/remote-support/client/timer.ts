/**
 * The technician's running timer (spec §4 "Timer": counts up each second from
 * the start time while a session is active, shown hh:mm:ss by `formatTimer`).
 */
import { useEffect, useState } from "react";

/** Whole seconds from `startTime` (ISO 8601) to `now`, never negative (clocks differ a little). */
export function elapsedSeconds(startTime: string | null, now: number): number {
  if (!startTime) return 0;
  const start = Date.parse(startTime);
  if (Number.isNaN(start)) return 0;
  return Math.max(0, Math.floor((now - start) / 1000));
}

/** `elapsedSeconds` refreshed every second while `startTime` is set. */
export function useElapsedSeconds(startTime: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!startTime) return;
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [startTime]);
  return elapsedSeconds(startTime, now);
}
