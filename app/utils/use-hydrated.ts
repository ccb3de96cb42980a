/**
 * Whether React has hydrated this page: `false` in the server's HTML and during hydration, `true` after.
 *
 * For controls that only JavaScript can carry out (the screen picker): rendered disabled until their handler
 * exists, so a click made while the scripts load is not silently lost (issue 30).
 */
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
