// @vitest-environment happy-dom
/** Issue 28 §8: surface reports while a shared window is dragged are spaced out, the latest size kept. */
import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useLatestEvery } from "./use-latest-every.ts";

describe("useLatestEvery", () => {
  afterEach(() => void vi.useRealTimers());

  it("sends the first at once, then only the latest of a burst once the interval is over", () => {
    vi.useFakeTimers();
    const sent: number[] = [];
    const { result, unmount } = renderHook(() => useLatestEvery(1_000));
    for (let width = 1; width <= 50; width++) {
      result.current(() => sent.push(width));
      vi.advanceTimersByTime(10);
    }
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(1_000);
    expect(sent).toEqual([1, 50]);
    // Nothing waits after an unmount.
    result.current(() => sent.push(99));
    unmount();
    vi.advanceTimersByTime(5_000);
    expect(sent).toEqual([1, 50]);
  });
});
