/**
 * The time now, refreshed every `intervalMs` (issue 27: the queue's waiting
 * times tick by the minute without a request). Ms since the epoch.
 */
import { useEffect, useState } from "react";

export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}
