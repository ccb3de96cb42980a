// @vitest-environment happy-dom
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeroVideo, type HeroVideoSource } from "./hero-video";

const sources: readonly HeroVideoSource[] = [
  { src: "/media/sales-hero.webm", type: "video/webm" },
  { src: "/media/sales-hero.mp4", type: "video/mp4" },
];
const props = { sources, poster: "/media/sales-hero-poster.webp", width: 960, height: 540 };

/** A controllable `matchMedia("(prefers-reduced-motion: reduce)")`. */
function mockReducedMotion(initial: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: initial,
    media: "(prefers-reduced-motion: reduce)",
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.spyOn(window, "matchMedia").mockImplementation(() => query as unknown as MediaQueryList);
  return (reduce: boolean) => {
    query.matches = reduce;
    for (const listener of listeners) listener();
  };
}

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("HeroVideo", () => {
  it("server-renders only the decorative poster, in a fixed-ratio box", () => {
    const html = renderToString(<HeroVideo {...props} />);
    expect(html).not.toContain("<video");
    expect(html).toContain('src="/media/sales-hero-poster.webp"');
    expect(html).toContain('alt=""');
    expect(html).toContain('width="960"');
    expect(html).toContain("aspect-video");
  });

  it("mounts a muted, looping, decorative video when motion is allowed", () => {
    mockReducedMotion(false);
    render(<HeroVideo {...props} />);
    const video = screen.getByTestId("hero-video") as HTMLVideoElement;
    expect(video).toHaveAttribute("aria-hidden", "true");
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.autoplay).toBe(true);
    expect(video.controls).toBe(false);
    expect(video).toHaveAttribute("playsinline");
    expect(video).toHaveAttribute("preload", "metadata");
    expect(video).toHaveAttribute("poster", props.poster);
    expect([...video.querySelectorAll("source")].map((s) => s.getAttribute("type"))).toEqual([
      "video/webm",
      "video/mp4",
    ]);
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
  });

  it("shows only the poster under prefers-reduced-motion, and reacts to a change", () => {
    const setReduce = mockReducedMotion(true);
    render(<HeroVideo {...props} />);
    expect(screen.queryByTestId("hero-video")).toBeNull();
    expect(screen.getByTestId("hero-video-poster")).toBeInTheDocument();

    act(() => setReduce(false));
    expect(screen.getByTestId("hero-video")).toBeInTheDocument();
    act(() => setReduce(true));
    expect(screen.queryByTestId("hero-video")).toBeNull();
  });

  it("can be paused and resumed (WCAG 2.2.2)", async () => {
    mockReducedMotion(false);
    const user = userEvent.setup();
    render(<HeroVideo {...props} />);
    await user.click(screen.getByRole("button", { name: "Mettre l'animation en pause" }));
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Relancer l'animation" }));
    expect(screen.getByRole("button", { name: "Mettre l'animation en pause" })).toBeInTheDocument();
  });
});
