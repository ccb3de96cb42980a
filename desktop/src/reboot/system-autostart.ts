/**
 * Issue 38 §3, « Reboot and reconnect »: which `Autostart` (`autostart.ts`) this system uses — the XDG entry on
 * Linux, the LaunchAgent on macOS, `RunOnce` on Windows (`windows-autostart.ts`, through koffi: without it, none)
 * — and `noAutostart` for the rest, whose registration fails in French.
 */
import { AUTOSTART_FAILED, type Autostart, linuxAutostart, macosAutostart, type UserPlace } from "./autostart.ts";

/** No autostart (a system without one, or Windows without koffi): `register` fails in French. */
export function noAutostart(reason: string): Autostart {
  return {
    where: "",
    register: async () => {
      throw new Error(`${AUTOSTART_FAILED} (${reason}).`);
    },
    remove: async () => false,
    registered: async () => false,
  };
}

/** This system's autostart; never rejects (Windows without koffi gets `noAutostart`). */
export async function createAutostart(
  platform: NodeJS.Platform = process.platform,
  place: UserPlace = {},
): Promise<Autostart> {
  if (platform === "linux") return linuxAutostart(place);
  if (platform === "darwin") return macosAutostart(place);
  if (platform !== "win32") return noAutostart("système non pris en charge");
  try {
    const { openRebootApi } = await import("./windows-reboot-native.ts");
    const { windowsAutostart } = await import("./windows-autostart.ts");
    return windowsAutostart(await openRebootApi());
  } catch (error) {
    return noAutostart(error instanceof Error ? error.message : String(error));
  }
}
