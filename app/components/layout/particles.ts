/**
 * The animated particles behind every page (spec §1, issue 2), as plain DOM code so that the
 * hydrated layout (`ParticleBackground`) and the content pages' islands script (issue 16,
 * docs/decisions/013) run the same animation.
 *
 * One particle per 15 000 px² of viewport, recomputed on resize; the loop stops while the tab is
 * hidden; under prefers-reduced-motion a single still frame is drawn. `data-particles` (count) and
 * `data-running` ("true"/"false") on the canvas tell what it does.
 */
/** Viewport area per particle, in CSS px² (spec §1). */
export const AREA_PER_PARTICLE_PX2 = 15_000;

/** Number of particles for a viewport of `width` × `height` CSS pixels. */
export function particleCount(width: number, height: number): number {
  return Math.max(0, Math.floor((width * height) / AREA_PER_PARTICLE_PX2));
}

type Particle = { x: number; y: number; vx: number; vy: number; r: number };

const LINK_DISTANCE_PX = 110;

function spawn(count: number, width: number, height: number, previous: Particle[]): Particle[] {
  const next = previous.slice(0, count);
  while (next.length < count) {
    next.push({
      x: Math.random() * width,
      y: Math.random() * height,
      vx: (Math.random() - 0.5) * 0.35,
      vy: (Math.random() - 0.5) * 0.35,
      r: 1 + Math.random() * 1.6,
    });
  }
  return next;
}

/** Starts the animation on `canvas`; returns the function that stops it and removes its listeners. */
export function animateParticles(canvas: HTMLCanvasElement): () => void {
  const context = canvas.getContext("2d");
  if (!context) return () => {};

  const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  let particles: Particle[] = [];
  let width = 0;
  let height = 0;
  let frame = 0;

  const resize = () => {
    width = window.innerWidth;
    height = window.innerHeight;
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    particles = spawn(particleCount(width, height), width, height, particles);
    canvas.dataset.particles = String(particles.length);
  };

  const draw = () => {
    context.clearRect(0, 0, width, height);
    context.fillStyle = "rgba(125, 211, 252, 0.55)";
    for (const p of particles) {
      context.beginPath();
      context.arc(p.x, p.y, p.r, 0, Math.PI * 2);
      context.fill();
    }
    context.lineWidth = 0.6;
    for (let i = 0; i < particles.length; i++) {
      const a = particles[i]!;
      for (let j = i + 1; j < particles.length; j++) {
        const b = particles[j]!;
        const dx = a.x - b.x;
        const dy = a.y - b.y;
        const distance = Math.hypot(dx, dy);
        if (distance < LINK_DISTANCE_PX) {
          context.strokeStyle = `rgba(56, 189, 248, ${0.18 * (1 - distance / LINK_DISTANCE_PX)})`;
          context.beginPath();
          context.moveTo(a.x, a.y);
          context.lineTo(b.x, b.y);
          context.stroke();
        }
      }
    }
  };

  const step = () => {
    for (const p of particles) {
      p.x += p.vx;
      p.y += p.vy;
      if (p.x < 0 || p.x > width) p.vx *= -1;
      if (p.y < 0 || p.y > height) p.vy *= -1;
    }
    draw();
    frame = requestAnimationFrame(step);
  };

  const stop = () => {
    cancelAnimationFrame(frame);
    frame = 0;
    canvas.dataset.running = "false";
  };
  const start = () => {
    stop();
    if (motion.matches || document.hidden) {
      draw();
      return;
    }
    canvas.dataset.running = "true";
    frame = requestAnimationFrame(step);
  };

  let resizeFrame = 0;
  const onResize = () => {
    cancelAnimationFrame(resizeFrame);
    resizeFrame = requestAnimationFrame(() => {
      resize();
      if (!frame) draw();
    });
  };

  resize();
  start();
  window.addEventListener("resize", onResize);
  document.addEventListener("visibilitychange", start);
  motion.addEventListener("change", start);
  return () => {
    stop();
    cancelAnimationFrame(resizeFrame);
    window.removeEventListener("resize", onResize);
    document.removeEventListener("visibilitychange", start);
    motion.removeEventListener("change", start);
  };
}
