/**
 * Issue 38 §4, « The computer's facts, before the technician joins »: what the app sends with its session or its
 * pairing when the customer left « Envoyer les informations de l'ordinateur au technicien » ticked
 * (`consent.ts`). `collectFacts` picks this system's reader (`linux.ts`, `windows.ts` through koffi, `macos.ts`
 * through koffi's `sysctlbyname`), adds the screens' sizes the injector knows and whether the app runs elevated
 * (Windows: its token, issue 36 §4; elsewhere: root), and checks the whole with the protocol's schema
 * (`ComputerFacts`), dropping a fact it refuses rather than everything. Fail soft: a reader that throws, or takes
 * longer than `FACTS_TIMEOUT_MS` (a hung network mount), gives what the others read; never a throw.
 * Never read: serial numbers, user names, the computer's name or any network address.
 */
import { ComputerFacts, computerSummary } from "#app/remote-support/facts-protocol.ts";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import { FACTS_CONSENT_TEXTS, type FactsChoice, type FactsSource } from "./consent.ts";

/** Longest wait for the system's answers, ms: the session starts without the facts rather than late. */
export const FACTS_TIMEOUT_MS = 3_000;

export type CollectOptions = {
  platform: NodeJS.Platform;
  /** The monitors the injector knows (OS pixels × `scale`: device pixels are told). */
  screens: readonly Screen[];
  /** Windows: the app's elevation (`Elevation.elevated`); null or undefined: not known (then root elsewhere). */
  elevated: boolean | null | undefined;
  /** This system's reader (default: the one of `platform`, loaded on demand); tests give a fake. */
  read?: () => Promise<ComputerFacts>;
  /** Elsewhere than Windows: whether the app runs as root (default `process.getuid() === 0`). */
  isRoot?: () => boolean | null;
  timeoutMs?: number;
};

/** This system's reader, loaded only on it (koffi is touched on Windows and macOS only). */
async function systemReader(platform: NodeJS.Platform): Promise<ComputerFacts> {
  if (platform === "linux") return (await import("./linux.ts")).readLinuxFacts();
  if (platform === "win32") {
    const [{ openFactsWin32Api }, { readWindowsFacts }] = await Promise.all([
      import("./windows-native.ts"),
      import("./windows.ts"),
    ]);
    return readWindowsFacts(await openFactsWin32Api());
  }
  if (platform === "darwin") {
    const { openSysctlApi, readMacosFacts } = await import("./macos.ts");
    return readMacosFacts(await openSysctlApi());
  }
  return {};
}

const defaultIsRoot = () => (typeof process.getuid === "function" ? process.getuid() === 0 : null);

/**
 * The computer's facts (see the module comment): resolves with those that could be read and pass the schema,
 * `{}` at worst; never rejects.
 */
export async function collectFacts(options: CollectOptions): Promise<ComputerFacts> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ComputerFacts>((resolve) => {
    timer = setTimeout(() => resolve({}), options.timeoutMs ?? FACTS_TIMEOUT_MS);
  });
  const read = (options.read ?? (() => systemReader(options.platform)))().catch(() => ({}) as ComputerFacts);
  const facts: Record<string, unknown> = { ...(await Promise.race([read, timeout])) };
  clearTimeout(timer);
  const screens = options.screens
    .slice(0, 8)
    .map((screen) => ({
      width: Math.round(screen.width * (screen.scale ?? 1)),
      height: Math.round(screen.height * (screen.scale ?? 1)),
    }))
    .filter((screen) => screen.width > 0 && screen.height > 0);
  if (screens.length > 0) facts.screens = screens;
  let elevated = options.elevated;
  if (typeof elevated !== "boolean" && options.platform !== "win32") {
    try {
      elevated = (options.isRoot ?? defaultIsRoot)();
    } catch {
      elevated = null;
    }
  }
  if (typeof elevated === "boolean") facts.elevated = elevated;
  return checked(facts);
}

/**
 * What `app.ts` needs: the first question's box (`choice`, ticked when `ticked`: not `--sans-informations`) and the
 * source the requests read (`pairing.ts`): this computer's facts while the box is ticked, undefined (nothing read)
 * once the customer unticked it. `platform`: default `process.platform`; `screens` (read when the facts are) and
 * `elevated`: as `CollectOptions`. `tell(notice)`: once the session exists, says what was sent (nothing when none was).
 */
export function consentedFacts(
  ticked: boolean,
  platform: NodeJS.Platform | undefined,
  screens: () => readonly Screen[],
  elevated: boolean | null | undefined,
): FactsSource & { choice: FactsChoice; tell(notice: (text: string) => void): void } {
  const choice: FactsChoice = { send: ticked };
  let sent: ComputerFacts | undefined;
  return {
    choice,
    read: async () => {
      sent = choice.send
        ? await collectFacts({ platform: platform ?? process.platform, screens: screens(), elevated })
        : undefined;
      return sent;
    },
    tell: (notice) => {
      if (sent && Object.keys(sent).length > 0) notice(FACTS_CONSENT_TEXTS.sent(computerSummary(sent)));
    },
  };
}

/** The facts the schema accepts: each refused fact is dropped (a few tries), the others kept. */
function checked(facts: Record<string, unknown>): ComputerFacts {
  const candidate = { ...facts };
  for (let attempt = 0; attempt < 12; attempt++) {
    const parsed = ComputerFacts.safeParse(candidate);
    if (parsed.success) return parsed.data;
    const refused = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")));
    if (refused.has("")) return {};
    for (const key of refused) delete candidate[key];
  }
  return {};
}
