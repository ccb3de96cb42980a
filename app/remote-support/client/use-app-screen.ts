/**
 * The desktop app's picture of the customer's screen as a React hook (issue
 * 26): one `AppScreen` (`app-screen.ts`) for session `code` while `enabled`
 * (the session's `DeviceView.appPicture`). Turning it off (the customer
 * withdrew the view, the app went away) drops the picture. The figures
 * (`fps`, last frame) are read once a second, not on every frame.
 */
import { useCallback, useEffect, useState } from "react";
import {
  AppScreen,
  EMPTY_APP_SCREEN,
  EMPTY_APP_SCREEN_STATS,
  type AppScreenSnapshot,
  type AppScreenStats,
} from "./app-screen";
import type { RealtimeSocket } from "./session-events";

export type AppScreenState = AppScreenSnapshot &
  AppScreenStats & {
    /** The canvas to place in the page; null while off. */
    canvas: HTMLCanvasElement | null;
    /** Show monitor `screen` (`Screen.id`); the picture switches with the next full frame. */
    select: (screen: string) => void;
    /** Ask the app for a full picture now. */
    refresh: () => void;
  };

/** How often the figures are read, ms. */
export const APP_SCREEN_STATS_INTERVAL_MS = 1_000;

const sameStats = (a: AppScreenStats, b: AppScreenStats) =>
  a.fps === b.fps && a.lastFrameAt === b.lastFrameAt && a.lastFrameMs === b.lastFrameMs && a.frames === b.frames;

export function useAppScreen(code: string | null, socket: RealtimeSocket | null, enabled: boolean): AppScreenState {
  const [screen, setScreen] = useState<AppScreen | null>(null);
  const [snapshot, setSnapshot] = useState<AppScreenSnapshot>(EMPTY_APP_SCREEN);
  const [stats, setStats] = useState<AppScreenStats>(EMPTY_APP_SCREEN_STATS);

  useEffect(() => {
    if (!code || !socket || !enabled) return;
    const core = new AppScreen({ socket, code });
    const readStats = () => {
      const next = core.stats();
      setStats((current) => (sameStats(current, next) ? current : next));
    };
    setScreen(core);
    setSnapshot(core.getSnapshot());
    const unsubscribe = core.subscribe(() => {
      setSnapshot(core.getSnapshot());
      readStats();
    });
    const timer = setInterval(readStats, APP_SCREEN_STATS_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      unsubscribe();
      core.destroy();
      setScreen(null);
      setSnapshot(EMPTY_APP_SCREEN);
      setStats(EMPTY_APP_SCREEN_STATS);
    };
  }, [code, socket, enabled]);

  const select = useCallback((id: string) => screen?.select(id), [screen]);
  const refresh = useCallback(() => screen?.refresh(), [screen]);

  return { ...snapshot, ...stats, canvas: screen?.canvas ?? null, select, refresh };
}
