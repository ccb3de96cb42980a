/**
 * Picks the injection backend of this system (issue 15, "Injection"): X11
 * on Linux, SendInput on Windows, CoreGraphics on macOS. Each backend module
 * is imported only on its own system, so a Windows copy never opens libX11.
 */
import type { Injector, WarningListener } from "./injector.ts";
import { TrackedInjector, UNKNOWN_SCREEN, unavailableBackend } from "./injector.ts";

/**
 * The injector for `platform` (default: this process's). Never throws: a
 * backend that cannot work reports why in its status (French).
 */
export async function createPlatformInjector(
  onWarning: WarningListener,
  platform: NodeJS.Platform = process.platform,
): Promise<Injector> {
  if (platform === "linux") return (await import("./x11.ts")).createX11Injector({ onWarning });
  if (platform === "win32") return (await import("./windows.ts")).createWindowsInjector({ onWarning });
  if (platform === "darwin") return (await import("./macos.ts")).createMacInjector({ onWarning });
  const reason = "Ce système n'est pas pris en charge pour la prise de contrôle.";
  return new TrackedInjector(() => unavailableBackend(reason, [UNKNOWN_SCREEN]), onWarning);
}
