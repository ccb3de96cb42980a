/**
 * A React hook that spaces out calls: the first at once, then at most one every `intervalMs` (ms), the
 * latest waiting one replacing older ones (issue 28 §8: surface reports while a shared window is dragged).
 */
import { useCallback, useEffect, useRef } from "react";

/** `(send) => …` runs `send` at most once every `intervalMs`; a later call replaces one still waiting. */
export function useLatestEvery(intervalMs: number): (send: () => void) => void {
  const state = useRef<{ sentAt: number; timer?: ReturnType<typeof setTimeout> }>({
    sentAt: Number.NEGATIVE_INFINITY,
  });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return useCallback(
    (send: () => void) => {
      const current = state.current;
      clearTimeout(current.timer);
      const run = () => {
        current.sentAt = Date.now();
        send();
      };
      const wait = current.sentAt + intervalMs - Date.now();
      if (wait <= 0) run();
      else current.timer = setTimeout(run, wait);
    },
    [intervalMs],
  );
}
