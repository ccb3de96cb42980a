/**
 * Issue 26, moved out of the remote view (issue 27 keeps that file's length): places the desktop app's picture
 * canvas (`useAppScreen`) into `hostRef`'s element as an image named for screen readers, and takes it out again
 * when the host goes (view reduced, picture source changed). `deps`: what re-creates the host.
 */
import { useEffect, type RefObject } from "react";

export function usePlacedCanvas(
  hostRef: RefObject<HTMLElement | null>,
  canvas: HTMLCanvasElement | null,
  deps: readonly unknown[],
): void {
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !canvas) return;
    canvas.className = "block size-full object-contain";
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "Image de l'écran du client");
    canvas.dataset.testid = "app-screen";
    host.append(canvas);
    return () => canvas.remove();
    // The host is re-created by `deps` (the view opened, the app's picture shown): the caller names them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canvas, hostRef, ...deps]);
}
