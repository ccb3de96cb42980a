/**
 * Issue 38 §4, the computer's facts on Linux (`ComputerFacts`, `app/remote-support/facts-protocol.ts`), read from
 * the kernel's and the system's own files, never from a command's output:
 *
 * - the system: `/etc/os-release` (`NAME` and `VERSION_ID`, else `PRETTY_NAME`) and the kernel's release
 *   (`/proc/sys/kernel/osrelease`);
 * - the model: `/sys/class/dmi/id/product_name` (with `sys_vendor` before it when the name does not say it), never
 *   `product_serial` nor `product_uuid`; firmware placeholders (« To be filled by O.E.M. »…) count as unknown;
 * - the processor: `/proc/cpuinfo` (the first `model name`, the count of `processor` lines);
 * - the memory: `/proc/meminfo` (`MemTotal`, `MemAvailable`, kB);
 * - the disks: `/proc/mounts`'s block devices, each once, `statfs` for its size and what an ordinary user may still
 *   write (`bavail`); a mount point under `/home/<name>`, `/media` or `/run` (where a user name shows) is left out;
 * - the battery: `/sys/class/power_supply/*` of `type` Battery (`capacity`, `status`); none: null;
 * - the uptime: `/proc/uptime`.
 * `root` makes every path relative to a fake tree (tests). A fact that cannot be read is left out: never a throw.
 */
import * as fs from "node:fs/promises";
import path from "node:path";
import type { ComputerFacts } from "#app/remote-support/facts-protocol.ts";

/** What `statfs` gives that the facts need: block size and counts. */
export type FsStats = { bsize: number; blocks: number; bavail: number };

export type LinuxFactsOptions = {
  /** The file system's root the paths are read under (default "/"). */
  root?: string;
  /** `statfs(2)` of a mount point (default Node's and Bun's `fs.statfs`). */
  statfs?: (mountPoint: string) => Promise<FsStats>;
};

/**
 * `statfs(2)` through the runtime (Node, Bun); read through the module's namespace so that a runtime without it
 * fails this call only (the disks are then left out), never the module's loading.
 */
export function systemStatfs(mountPoint: string): Promise<FsStats> {
  const statfs = (fs as { statfs?: (path: string) => Promise<FsStats> }).statfs;
  return statfs ? statfs(mountPoint) : Promise.reject(new Error("statfs indisponible"));
}

/** Facts of this Linux computer (see the module comment); the screens and elevation come from elsewhere. */
export async function readLinuxFacts(options: LinuxFactsOptions = {}): Promise<ComputerFacts> {
  const root = options.root ?? "/";
  const read = (file: string) => fs.readFile(path.join(root, file), "utf8").catch(() => null);
  const statfs = options.statfs ?? systemStatfs;
  const [osRelease, kernel, cpuinfo, meminfo, uptime, mounts] = await Promise.all([
    read("etc/os-release"),
    read("proc/sys/kernel/osrelease"),
    read("proc/cpuinfo"),
    read("proc/meminfo"),
    read("proc/uptime"),
    read("proc/mounts"),
  ]);
  const facts: ComputerFacts = {};
  const system = osRelease === null ? null : systemName(osRelease);
  if (system) facts.os = { name: system, version: kernel?.trim() || null };
  const model = await readModel(read);
  if (model) facts.model = model;
  if (cpuinfo !== null) facts.cpu = readCpu(cpuinfo);
  if (meminfo !== null) {
    const total = meminfoBytes(meminfo, "MemTotal");
    if (total !== null) facts.memory = { total, free: meminfoBytes(meminfo, "MemAvailable") };
  }
  const seconds = uptime === null ? Number.NaN : Number.parseFloat(uptime);
  if (Number.isFinite(seconds) && seconds >= 0) facts.uptimeSeconds = Math.floor(seconds);
  if (mounts !== null) facts.disks = await readDisks(mounts, statfs);
  const battery = await readBattery(root, read);
  if (battery !== undefined) facts.battery = battery;
  return facts;
}

/** `/etc/os-release`'s values (shell-style assignments, quotes removed). */
export function parseOsRelease(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!.replace(/^(["'])(.*)\1$/, "$2");
  }
  return values;
}

/** « Debian GNU/Linux 12 », « Ubuntu 24.04 »: the name with its version, else the pretty name. */
function systemName(text: string): string | null {
  const values = parseOsRelease(text);
  if (values.NAME) return `${values.NAME}${values.VERSION_ID ? ` ${values.VERSION_ID}` : ""}`;
  return values.PRETTY_NAME || null;
}

/** What firmwares write where the maker left the field empty. */
const PLACEHOLDERS =
  /^(to be filled.*|system product name|system manufacturer|default string|not applicable|none|o\.?e\.?m\.?)$/i;

/** A model or maker as the firmware says it, or null when empty or a placeholder. */
export function firmwareText(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim() ?? "";
  return text && !PLACEHOLDERS.test(text) ? text.slice(0, 120) : null;
}

async function readModel(read: (file: string) => Promise<string | null>): Promise<string | null> {
  const [product, vendor] = await Promise.all([
    read("sys/class/dmi/id/product_name"),
    read("sys/class/dmi/id/sys_vendor"),
  ]);
  const name = firmwareText(product);
  if (!name) return null;
  const maker = firmwareText(vendor);
  return maker && !name.toLowerCase().startsWith(maker.split(" ")[0]!.toLowerCase()) ? `${maker} ${name}` : name;
}

function readCpu(cpuinfo: string): NonNullable<ComputerFacts["cpu"]> {
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? /^Model\s*:\s*(.+)$/m.exec(cpuinfo)?.[1];
  const cores = cpuinfo.match(/^processor\s*:/gm)?.length ?? 0;
  return { model: firmwareText(model), cores: cores > 0 ? Math.min(cores, 4_096) : null };
}

/** A `/proc/meminfo` field, bytes (the file says kB), or null. */
function meminfoBytes(meminfo: string, field: string): number | null {
  const kilobytes = new RegExp(`^${field}:\\s*(\\d+)\\s*kB`, "m").exec(meminfo)?.[1];
  return kilobytes === undefined ? null : Number(kilobytes) * 1024;
}

/** Where a user name shows in a mount point (`/home/marie/…`, `/media/marie/…`, `/run/media/marie/…`). */
const PERSONAL_MOUNTS = /^\/(home\/[^/]+|media|run|snap|var\/snap)(\/|$)/;
/** File systems that are no disk of the computer (read-only images, snaps). */
const NOT_DISKS = new Set(["squashfs", "iso9660", "udf", "erofs"]);

/** `/proc/mounts` escapes spaces and a few others as octal (`\040`). */
const unescapeMount = (value: string) =>
  value.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));

/** The computer's disks: one mount point per block device, the root first, at most 8. */
async function readDisks(
  mounts: string,
  statfs: (mountPoint: string) => Promise<FsStats>,
): Promise<NonNullable<ComputerFacts["disks"]>> {
  const seen = new Set<string>();
  const points: string[] = [];
  for (const line of mounts.split("\n")) {
    const [device, rawPoint, type] = line.split(" ");
    if (!device?.startsWith("/dev/") || device.startsWith("/dev/loop") || !rawPoint || !type) continue;
    const point = unescapeMount(rawPoint);
    if (NOT_DISKS.has(type) || PERSONAL_MOUNTS.test(point) || seen.has(device)) continue;
    seen.add(device);
    if (point === "/") points.unshift(point);
    else points.push(point);
  }
  const disks: NonNullable<ComputerFacts["disks"]> = [];
  for (const point of points) {
    if (disks.length >= 8) break;
    try {
      const stats = await statfs(point);
      const size = stats.blocks * stats.bsize;
      if (size > 0) disks.push({ mount: point.slice(0, 64), size, free: Math.min(size, stats.bavail * stats.bsize) });
    } catch {
      // A mount that vanished or cannot be read: the others are still told.
    }
  }
  return disks;
}

/** The first battery: its charge and whether it charges; null when the computer has none; undefined: unknown. */
async function readBattery(
  root: string,
  read: (file: string) => Promise<string | null>,
): Promise<ComputerFacts["battery"] | undefined> {
  let supplies: string[];
  try {
    supplies = (await fs.readdir(path.join(root, "sys/class/power_supply"))).sort();
  } catch {
    return undefined;
  }
  for (const supply of supplies) {
    const folder = `sys/class/power_supply/${supply}`;
    if ((await read(`${folder}/type`))?.trim() !== "Battery") continue;
    if ((await read(`${folder}/scope`))?.trim() === "Device") continue; // a mouse's or a keyboard's
    const capacity = Number.parseInt((await read(`${folder}/capacity`)) ?? "", 10);
    if (!Number.isInteger(capacity)) return undefined;
    const status = (await read(`${folder}/status`))?.trim();
    const charging = status === "Charging" ? true : status === "Discharging" ? false : null;
    return { percent: Math.max(0, Math.min(100, capacity)), charging };
  }
  return null;
}
