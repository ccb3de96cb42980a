/**
 * What the app knows and can do about administrator rights (issue 36 §4, « Past UAC »): whether it runs elevated
 * (Windows only: reported on `device:status` as `elevated`, so the technician can ask for more), and starting
 * itself again as administrator. `createElevation` picks the system's: Windows through
 * `windows-elevation.ts`; elsewhere nothing (no `elevated` field, no relaunch), and the same when koffi or a
 * Windows library cannot be loaded: the app then works as before issue 36.
 *
 * `ATELIER_ELEVATION=limite` makes a Windows app report itself not elevated whatever its token says. Wine gives
 * every program an administrator's token (`TokenElevationTypeFull`, checked under Wine 8), so without it the
 * relaunch could never be offered there, and the Wine test (`tests/e2e/desktop-app-windows.spec.ts`) could not
 * exercise it. It only ever offers a relaunch that Windows itself guards with its UAC prompt.
 */
import { selfCommand } from "../launcher.ts";

/**
 * What became of a relaunch. `started`: the new process runs (`running()` polls it; `release()` closes its
 * handle); `cancelled`: the customer said no to the UAC prompt (`ERROR_CANCELLED`); `failed`: anything else, with
 * a French reason.
 */
export type RelaunchOutcome =
  { kind: "started"; running(): boolean; release(): void } | { kind: "cancelled" } | { kind: "failed"; reason: string };

/** The app's elevation (see the module comment). */
export interface Elevation {
  /** Windows: whether this process runs as administrator (null: could not be read); elsewhere undefined. */
  readonly elevated: boolean | null | undefined;
  /** Starts `command` (`[program, ...arguments]`) as administrator: one UAC prompt the customer answers. */
  relaunch(command: readonly string[]): Promise<RelaunchOutcome>;
}

/** French: why a relaunch cannot be tried on this system. */
export const NO_RELAUNCH = "Le relancement en administrateur n'existe que sous Windows.";

/** No elevation at all: other systems, or Windows without koffi. */
export const NO_ELEVATION: Elevation = {
  elevated: undefined,
  relaunch: async () => ({ kind: "failed", reason: NO_RELAUNCH }),
};

/** The variable that makes a Windows app report itself not elevated (see the module comment). */
export const LIMITED_ENV = "ATELIER_ELEVATION";

/** This system's elevation; never rejects (see the module comment). */
export async function createElevation(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Elevation> {
  if (platform !== "win32") return NO_ELEVATION;
  try {
    const { openElevationApi } = await import("./windows-elevation-native.ts");
    const { windowsElevation } = await import("./windows-elevation.ts");
    const elevation = windowsElevation(await openElevationApi());
    return env[LIMITED_ENV] === "limite"
      ? { elevated: false, relaunch: (command) => elevation.relaunch(command) }
      : elevation;
  } catch {
    return NO_ELEVATION;
  }
}

/**
 * The command that starts this very app again, without its arguments: the executable alone when compiled, else
 * the runtime and the script (`launcher.ts`'s `selfCommand`).
 */
export function programCommand(execPath = process.execPath, argv: readonly string[] = process.argv): string[] {
  return selfCommand({ execPath, argv: argv.slice(0, 2) });
}
