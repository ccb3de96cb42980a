/**
 * Test fixture of the slot choice (issue 30): the days a week shows, shared by the slot picker's component
 * tests and the islands page's `slots` enhancer tests.
 */
import type { DayView } from "./context.ts";

/** Tuesday 24 and Wednesday 25 November 2026, Paris (UTC+1): three slots each, one full; a closed Saturday. */
export const TEST_DAYS: DayView[] = [
  {
    date: "2026-11-24",
    slots: [
      { start: "2026-11-24T08:00:00.000Z", time: "09:00", free: 1 },
      { start: "2026-11-24T08:30:00.000Z", time: "09:30", free: 0 },
      { start: "2026-11-24T09:00:00.000Z", time: "10:00", free: 1 },
    ],
  },
  { date: "2026-11-28", slots: [] },
  {
    date: "2026-11-25",
    slots: [
      { start: "2026-11-25T13:00:00.000Z", time: "14:00", free: 1 },
      { start: "2026-11-25T13:30:00.000Z", time: "14:30", free: 1 },
      { start: "2026-11-25T14:00:00.000Z", time: "15:00", free: 0 },
    ],
  },
];
