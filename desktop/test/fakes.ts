/**
 * Test doubles for the desktop app (issue 15): a backend and an injector
 * that record every call, in order.
 */
import type { Injection, Screen } from "#app/remote-support/device-protocol.ts";
import type { Backend, Injector, MouseButton } from "../src/input/injector.ts";
import { TrackedInjector } from "../src/input/injector.ts";

export type Call = [string, ...unknown[]];

/** A backend recording its calls; `unknownCodes` are refused like keys a system lacks. */
export function recordingBackend(
  options: { screens?: Screen[]; status?: Injection; unknownCodes?: string[] } = {},
): Backend & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    status: () => options.status ?? { ok: true },
    screens: () => options.screens ?? [{ id: "main", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true }],
    movePixel: (x: number, y: number) => void calls.push(["move", x, y]),
    button: (button: MouseButton, down: boolean) => void calls.push(["button", button, down]),
    wheel: (dx: number, dy: number) => void calls.push(["wheel", dx, dy]),
    key: (code: string, down: boolean) => {
      if (options.unknownCodes?.includes(code)) return false;
      calls.push(["key", code, down]);
      return true;
    },
    text: (text: string) => void calls.push(["text", text]),
    sas: () => {
      calls.push(["sas"]);
      return { ok: true };
    },
    close: () => void calls.push(["close"]),
  };
}

/** A TrackedInjector over a recording backend. */
export function recordingInjector(options: Parameters<typeof recordingBackend>[0] = {}): {
  injector: Injector & TrackedInjector;
  calls: Call[];
  warnings: string[];
} {
  const backend = recordingBackend(options);
  const warnings: string[] = [];
  const injector = new TrackedInjector(
    () => backend,
    (message) => warnings.push(message),
  );
  return { injector, calls: backend.calls, warnings };
}
