/**
 * Issue 38 §4, the computer's facts on macOS (`ComputerFacts`), through `sysctlbyname(3)` (libSystem, by koffi:
 * `openSysctlApi`, a table of one C function so the reading is unit-tested on Linux with a fake), and Node's or
 * Bun's own `os` and `fs` where they are enough:
 *
 * - the system: `kern.osproductversion` (« macOS 14.5 ») and `kern.osversion` (the build, « 23F79 »);
 * - the model: `hw.model` (« MacBookAir10,1 », the model's identifier, not the serial number);
 * - the processor: `machdep.cpu.brand_string` (« Apple M1 ») and `hw.ncpu`;
 * - the memory: `hw.memsize` and `os.freemem()`;
 * - the uptime: now − `kern.boottime` (a `struct timeval`);
 * - the disk: `statfs("/")` (the system's volume; other volumes are left out: their names are the customer's).
 * The battery is not read (IOKit's power sources are CoreFoundation dictionaries koffi cannot easily walk): it is
 * left out, as is any fact that cannot be read. Never a throw.
 */
import os from "node:os";
import type { ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { loadKoffi } from "../input/koffi.ts";
import { type FsStats, systemStatfs } from "./linux.ts";

/** `sysctlbyname(name, buffer, length, NULL, 0)`: 0 when `buffer` was filled; `length[0]`: bytes in, bytes out. */
export interface SysctlApi {
  sysctlbyname(name: string, buffer: Buffer, length: number[]): number;
}

/** koffi's declaration of the function. */
export const SYSCTLBYNAME =
  "int sysctlbyname(const char *name, void *oldp, _Inout_ size_t *oldlenp, void *newp, size_t newlen)";

/** Binds `sysctlbyname` from libSystem. @throws when koffi or the library cannot be loaded. */
export async function openSysctlApi(): Promise<SysctlApi> {
  const koffi = await loadKoffi();
  const sysctl = koffi.load("/usr/lib/libSystem.B.dylib").func(SYSCTLBYNAME);
  return { sysctlbyname: (name, buffer, length) => Number(sysctl(name, buffer, length, null, 0)) };
}

/** `name`'s value as bytes, or null when it cannot be read. `max`: the buffer's size. */
function sysctlBytes(api: SysctlApi, name: string, max = 256): Buffer | null {
  try {
    const buffer = Buffer.alloc(max);
    const length = [max];
    if (api.sysctlbyname(name, buffer, length) !== 0) return null;
    return buffer.subarray(0, Math.max(0, Math.min(max, length[0] ?? 0)));
  } catch {
    return null;
  }
}

/** A string value (NUL-terminated), trimmed; null when absent or empty. */
export function sysctlString(api: SysctlApi, name: string): string | null {
  const bytes = sysctlBytes(api, name);
  const text = bytes?.toString("utf8").replace(/\0.*$/s, "").trim();
  return text ? text : null;
}

/** An integer value of 4 or 8 bytes (little-endian, as on every Mac); null otherwise. */
export function sysctlInteger(api: SysctlApi, name: string): number | null {
  const bytes = sysctlBytes(api, name, 8);
  if (bytes?.length === 8) return Number(bytes.readBigUInt64LE(0));
  if (bytes?.length === 4) return bytes.readUInt32LE(0);
  return null;
}

export type MacosFactsOptions = {
  /** Milliseconds since 1970 (default `Date.now()`), for the uptime. */
  now?: number;
  /** Bytes of memory free (default `os.freemem()`). */
  freeMemory?: () => number;
  /** `statfs(2)` (default Node's and Bun's `fs.statfs`). */
  statfs?: (mountPoint: string) => Promise<FsStats>;
};

/** Facts of this Mac (see the module comment); the screens and elevation come from elsewhere. */
export async function readMacosFacts(api: SysctlApi, options: MacosFactsOptions = {}): Promise<ComputerFacts> {
  const facts: ComputerFacts = {};
  const product = sysctlString(api, "kern.osproductversion");
  if (product) facts.os = { name: `macOS ${product}`, version: sysctlString(api, "kern.osversion") };
  const model = sysctlString(api, "hw.model");
  if (model) facts.model = model.slice(0, 120);
  const brand = sysctlString(api, "machdep.cpu.brand_string");
  const cores = sysctlInteger(api, "hw.ncpu");
  if (brand || cores)
    facts.cpu = { model: brand?.slice(0, 120) ?? null, cores: cores && cores > 0 ? Math.min(cores, 4_096) : null };
  const total = sysctlInteger(api, "hw.memsize");
  if (total) {
    let free: number | null = null;
    try {
      free = Math.min(total, (options.freeMemory ?? os.freemem)());
    } catch {
      // Unknown: the total alone is said.
    }
    facts.memory = { total, free };
  }
  // struct timeval { time_t tv_sec (8 bytes); suseconds_t tv_usec (4 bytes, padded to 16) }.
  const boot = sysctlBytes(api, "kern.boottime", 16);
  if (boot && boot.length >= 8) {
    const seconds = Math.floor((options.now ?? Date.now()) / 1000 - Number(boot.readBigInt64LE(0)));
    if (seconds >= 0) facts.uptimeSeconds = seconds;
  }
  try {
    const stats = await (options.statfs ?? systemStatfs)("/");
    const size = stats.blocks * stats.bsize;
    if (size > 0) facts.disks = [{ mount: "/", size, free: Math.min(size, stats.bavail * stats.bsize) }];
  } catch {
    // The disk is left out.
  }
  return facts;
}
