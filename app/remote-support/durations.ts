/**
 * Spec §9's duration formats (timer hh:mm:ss, history "Xm Ys", report "Xh Ym Zs"), from whole seconds. Pure;
 * re-exported by `protocol.ts`, where every screen imports them (moved here by issue 26 to keep that file short).
 */

const two = (value: number) => String(value).padStart(2, "0");

/** Spec §9 timer: "hh:mm:ss" from whole seconds (hours not capped at 24). */
export function formatTimer(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}

/** Spec §9 history: "Xm Ys" (minutes not capped at 60). */
export function formatHistoryDuration(totalSeconds: number | null): string {
  if (totalSeconds === null) return "—";
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** Spec §9 report: "Xh Ym Zs". */
export function formatReportDuration(totalSeconds: number | null): string {
  if (totalSeconds === null) return "—";
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m ${seconds % 60}s`;
}
