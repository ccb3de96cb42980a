/**
 * Issue 38 §4, « The computer's facts, before the technician joins »: what the desktop app says of the computer,
 * in one module shared by the browser, the server and the app (`desktop/src/facts/`). Pure: zod and `Intl` only.
 *
 * - Only with the customer's consent: « Envoyer les informations de l'ordinateur au technicien », ticked by default
 *   in the app's first question (window, zenity, terminal: `--sans-informations` refuses). Unticked: no `facts`.
 * - How they travel: the optional `facts` field of the bodies the app already sends when it starts a session
 *   (`DeviceSessionBody`, `POST /api/device/sessions`) or pairs (`DevicePairBody`, `POST /api/device/pair`), so
 *   they are stored in the same transaction and the waiting queue shows them before any technician joins. A new
 *   pairing without them removes the previous computer's.
 * - What: the system and its version, the model when known, the processor, the memory (total and free), the disks
 *   (size and free), the battery, the time since start-up, the screens' sizes and whether the app runs elevated.
 *   Never a serial number, a user name, a host name or a network address: the schema has no field for them, and an
 *   unknown key is dropped by `ComputerFacts` (zod strips it).
 * - Where they are shown: the queue card's short line (`computerSummary`, « Windows 11 · 8 Go · disque plein à
 *   94 % »), the technician's remote view (« Informations de l'ordinateur », `GET /api/sessions/:code/facts`,
 *   `FactsResponse`) and the session's report (`SessionReport.computerFacts`), both as `computerFactRows`.
 *
 * Units: bytes for memory and disks, seconds for the uptime, pixels for screens, percent (0–100) for the battery.
 */
import { z } from "zod";
import { programWords } from "#app/utils/text.ts";

/** Bounds of the facts: list lengths and the longest texts, characters. */
export const FACTS_LIMITS = { disks: 8, screens: 8, name: 120, mount: 64, cores: 4_096 } as const;

/** A size in bytes: a whole, non-negative, safe integer (a petabyte disk fits many times over). */
const Bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A one-line text written by the system (trimmed, no control or direction character), bounded. */
const Words = (max: number) => programWords(max);

export const ComputerFacts = z.object({
  /** `name`: the product with its version as people say it (« Windows 11 », « Debian GNU/Linux 12 », « macOS 14.5 »); `version`: the detailed one (build, kernel). */
  os: z.object({ name: Words(FACTS_LIMITS.name), version: Words(FACTS_LIMITS.name).nullish() }).nullish(),
  /** The computer's model (« XPS 13 9310 »), when the firmware says it. */
  model: Words(FACTS_LIMITS.name).nullish(),
  cpu: z
    .object({
      model: Words(FACTS_LIMITS.name).nullish(),
      cores: z.number().int().min(1).max(FACTS_LIMITS.cores).nullish(),
    })
    .nullish(),
  /** Bytes. */
  memory: z.object({ total: Bytes, free: Bytes.nullish() }).nullish(),
  /** The system's disk first; `mount`: « C: », « / », « /Volumes/Données »… Bytes. */
  disks: z
    .array(z.object({ mount: Words(FACTS_LIMITS.mount), size: Bytes, free: Bytes }))
    .max(FACTS_LIMITS.disks)
    .nullish(),
  /** null: the computer has no battery; absent: not known. */
  battery: z.object({ percent: z.number().int().min(0).max(100), charging: z.boolean().nullish() }).nullish(),
  /** Seconds since the computer started (at most a century). */
  uptimeSeconds: z
    .number()
    .int()
    .min(0)
    .max(100 * 365 * 86_400)
    .nullish(),
  /** Every monitor's size, pixels. */
  screens: z
    .array(z.object({ width: z.number().int().min(1).max(100_000), height: z.number().int().min(1).max(100_000) }))
    .max(FACTS_LIMITS.screens)
    .nullish(),
  /** The app runs as administrator (Windows) or root; null or absent: not known. */
  elevated: z.boolean().nullish(),
});
export type ComputerFacts = z.infer<typeof ComputerFacts>;

/** `GET /api/sessions/:code/facts` (the session's technician): the facts, null when none were sent. */
export type FactsResponse = { facts: ComputerFacts | null };

/** What was stored or received (untrusted, e.g. a `jsonb` column) → the facts, or null when it is not such facts. */
export function readComputerFacts(value: unknown): ComputerFacts | null {
  if (value === null || value === undefined) return null;
  const parsed = ComputerFacts.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** French texts of the facts (the app's consent, the technician's panel). */
export const FACTS_TEXTS = {
  consent: "Envoyer les informations de l'ordinateur au technicien",
  /** One line: what is sent, and what never is. */
  consentDetail:
    "Système, modèle, processeur, mémoire, disques, batterie, durée depuis le démarrage, écrans et droits " +
    "d'administrateur ; jamais de numéro de série, de nom d'utilisateur ni d'adresse réseau.",
  heading: "Informations de l'ordinateur",
  none: "Le client n'a pas envoyé les informations de son ordinateur.",
} as const;

const wholeFormat = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0 });
const oneDecimalFormat = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });
const GIB = 1024 ** 3;
const TIB = 1024 ** 4;
const MIB = 1024 ** 2;

/**
 * A size in French binary units as systems show them: « 512 Mo », « 8 Go », « 1,8 To » (whole gigabytes and
 * megabytes, one decimal for terabytes). `bytes`: ≥ 0.
 */
export function formatBytes(bytes: number): string {
  if (bytes >= TIB) return `${oneDecimalFormat.format(bytes / TIB)} To`;
  if (bytes >= GIB) return `${wholeFormat.format(bytes / GIB)} Go`;
  return `${wholeFormat.format(Math.max(0, bytes) / MIB)} Mo`;
}

/** How full a disk is, whole percent (0 for an empty or zero-sized one). */
export function usedPercent(disk: { size: number; free: number }): number {
  if (disk.size <= 0) return 0;
  return Math.round((Math.max(0, disk.size - Math.min(disk.free, disk.size)) / disk.size) * 100);
}

/**
 * The queue card's short line (French): the system, the memory and how full the system's disk (the first one) is,
 * each when known: « Windows 11 · 8 Go · disque plein à 94 % ». null when none of the three is known.
 */
export function computerSummary(facts: ComputerFacts): string | null {
  const parts: string[] = [];
  if (facts.os?.name) parts.push(facts.os.name);
  if (facts.memory) parts.push(formatBytes(facts.memory.total));
  const disk = facts.disks?.[0];
  if (disk && disk.size > 0) parts.push(`disque plein à ${wholeFormat.format(usedPercent(disk))} %`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** « 3 j 4 h », « 5 h 12 min », « 12 min » (seconds, ≥ 0). */
export function formatUptime(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  if (days > 0) return `${wholeFormat.format(days)} j ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/** One line of the facts as the panel and the report show them: a term and its value, French. */
export type FactRow = { term: string; value: string };

/** The facts, one row per known one, in a fixed order (the panel's and the report's `<dl>`). */
export function computerFactRows(facts: ComputerFacts): FactRow[] {
  const rows: FactRow[] = [];
  const add = (term: string, value: string | null | undefined) => {
    if (value) rows.push({ term, value });
  };
  if (facts.os) add("Système", facts.os.version ? `${facts.os.name} (${facts.os.version})` : facts.os.name);
  add("Modèle", facts.model);
  if (facts.cpu) {
    const cores = facts.cpu.cores ? `${wholeFormat.format(facts.cpu.cores)} cœurs` : null;
    add("Processeur", [facts.cpu.model, cores].filter(Boolean).join(", "));
  }
  if (facts.memory) {
    const free = facts.memory.free ?? null;
    add("Mémoire", `${formatBytes(facts.memory.total)}${free === null ? "" : ` (${formatBytes(free)} libres)`}`);
  }
  for (const disk of facts.disks ?? [])
    add(
      `Disque ${disk.mount}`,
      `${formatBytes(disk.size)}, ${formatBytes(disk.free)} libres (plein à ${usedPercent(disk)} %)`,
    );
  if (facts.battery === null) add("Batterie", "aucune");
  else if (facts.battery) {
    const state =
      facts.battery.charging === true ? " (en charge)" : facts.battery.charging === false ? " (sur batterie)" : "";
    add("Batterie", `${facts.battery.percent} %${state}`);
  }
  if (typeof facts.uptimeSeconds === "number") add("Allumé depuis", formatUptime(facts.uptimeSeconds));
  if (facts.screens && facts.screens.length > 0)
    add(
      facts.screens.length > 1 ? "Écrans" : "Écran",
      facts.screens.map((screen) => `${screen.width} × ${screen.height}`).join(", "),
    );
  if (typeof facts.elevated === "boolean")
    add("Droits d'administrateur", facts.elevated ? "oui (le logiciel fonctionne en administrateur)" : "non");
  return rows;
}
