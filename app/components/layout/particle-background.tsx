/**
 * Decorative animated particle background (spec §1, issue 2).
 *
 * One particle per 15 000 px² of viewport, recomputed on resize; the loop stops
 * while the tab is hidden; under prefers-reduced-motion a single still frame
 * is drawn. The canvas is fixed behind the page, so it causes no layout shift,
 * and aria-hidden.
 */
import { useEffect, useRef } from "react";
import { animateParticles } from "./particles.ts";

export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => (canvasRef.current ? animateParticles(canvasRef.current) : undefined), []);
  return (
    <canvas
      ref={canvasRef}
      aria-hidden="true"
      data-testid="particules"
      className="pointer-events-none fixed inset-0 -z-10 h-full w-full"
    />
  );
}
