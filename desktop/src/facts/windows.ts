/**
 * Issue 38 §4, the computer's facts on Windows (`ComputerFacts`), over the `FactsWin32Api` table
 * (`windows-native.ts`), never from a command's output:
 *
 * - the system: `RtlGetVersion` (major, minor, build; build 22000 and later is Windows 11, which still says 10.0);
 * - the model: `HKLM\HARDWARE\DESCRIPTION\System\BIOS` `SystemProductName` (with `SystemManufacturer` before it when
 *   the name does not say it), never the BIOS serial; the processor: `…\CentralProcessor\0` `ProcessorNameString`
 *   and `GetActiveProcessorCount(ALL_PROCESSOR_GROUPS)`; both read with `RegGetValueW` (`RRF_RT_REG_SZ`);
 * - the memory: `GlobalMemoryStatusEx` (`ullTotalPhys`, `ullAvailPhys`);
 * - the disks: the fixed drives (`GetLogicalDrives`, `GetDriveTypeW` = `DRIVE_FIXED`) by letter, never their
 *   labels, `GetDiskFreeSpaceExW` (size, free to this user); at most 8, C: first when there;
 * - the battery: `GetSystemPowerStatus` (`BatteryFlag` 128: none; 255 or a percent of 255: unknown);
 * - the uptime: `GetTickCount64`.
 * Each fact is read on its own: one that fails is left out, never a throw.
 */
import type { ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { firmwareText } from "./linux.ts";
import {
  type FactsWin32Api,
  type MemoryStatusEx,
  type OsVersionInfo,
  SIZEOF_MEMORYSTATUSEX,
  SIZEOF_OSVERSIONINFOW,
  type SystemPowerStatus,
  type U64,
} from "./windows-native.ts";

export const HKEY_LOCAL_MACHINE = -2147483646; // (HKEY)(LONG)0x80000002, sign-extended to a pointer
export const RRF_RT_REG_SZ = 0x00000002;
export const DRIVE_FIXED = 3;
export const ALL_PROCESSOR_GROUPS = 0xffff;
export const BIOS_KEY = "HARDWARE\\DESCRIPTION\\System\\BIOS";
export const CPU_KEY = "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0";
/** Bytes of the registry buffer: 255 UTF-16 characters and the final NUL. */
const REGISTRY_BYTES = 512;

/** Runs `read`, turning a throw into undefined: one unreadable fact never hides the others. */
function soft<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A 64-bit count as a number (every size here is far below 2^53). */
const toNumber = (value: U64) => Number(value);

/** « Windows 11 », « Windows 10 », « Windows 8.1 »… from `RtlGetVersion`'s numbers. */
export function windowsName(major: number, minor: number, build: number): string {
  if (major === 10) return build >= 22_000 ? "Windows 11" : "Windows 10";
  const older: Record<string, string> = { "6.3": "Windows 8.1", "6.2": "Windows 8", "6.1": "Windows 7" };
  return older[`${major}.${minor}`] ?? `Windows ${major}.${minor}`;
}

/** A `REG_SZ` of HKEY_LOCAL_MACHINE, or null when absent or unreadable. */
export function registryString(api: FactsWin32Api, key: string, value: string): string | null {
  const data = Buffer.alloc(REGISTRY_BYTES);
  const size = [REGISTRY_BYTES];
  if (api.RegGetValueW(HKEY_LOCAL_MACHINE, key, value, RRF_RT_REG_SZ, null, data, size) !== 0) return null;
  const bytes = Math.max(0, Math.min(REGISTRY_BYTES, size[0] ?? 0));
  return data.toString("utf16le", 0, bytes - (bytes % 2)).replace(/\0.*$/s, "");
}

/** Facts of this Windows computer (see the module comment); the screens and elevation come from elsewhere. */
export function readWindowsFacts(api: FactsWin32Api): ComputerFacts {
  const facts: ComputerFacts = {};
  const version = soft(() => {
    const info: OsVersionInfo = {
      dwOSVersionInfoSize: SIZEOF_OSVERSIONINFOW,
      dwMajorVersion: 0,
      dwMinorVersion: 0,
      dwBuildNumber: 0,
      dwPlatformId: 0,
      szCSDVersion: [],
    };
    return api.RtlGetVersion(info) === 0 && info.dwMajorVersion > 0 ? info : undefined;
  });
  if (version)
    facts.os = {
      name: windowsName(version.dwMajorVersion, version.dwMinorVersion, version.dwBuildNumber),
      version: `${version.dwMajorVersion}.${version.dwMinorVersion}.${version.dwBuildNumber}`,
    };
  const product = firmwareText(soft(() => registryString(api, BIOS_KEY, "SystemProductName")));
  const maker = firmwareText(soft(() => registryString(api, BIOS_KEY, "SystemManufacturer")));
  if (product)
    facts.model =
      maker && !product.toLowerCase().startsWith(maker.split(" ")[0]!.toLowerCase()) ? `${maker} ${product}` : product;
  const cpuModel = firmwareText(soft(() => registryString(api, CPU_KEY, "ProcessorNameString")));
  const cores = soft(() => api.GetActiveProcessorCount(ALL_PROCESSOR_GROUPS));
  if (cpuModel || cores) facts.cpu = { model: cpuModel, cores: cores && cores > 0 ? Math.min(cores, 4_096) : null };
  const memory = soft(() => {
    const status = { dwLength: SIZEOF_MEMORYSTATUSEX } as MemoryStatusEx;
    return api.GlobalMemoryStatusEx(status) ? status : undefined;
  });
  if (memory && toNumber(memory.ullTotalPhys) > 0)
    facts.memory = { total: toNumber(memory.ullTotalPhys), free: toNumber(memory.ullAvailPhys) };
  const disks = soft(() => readDrives(api));
  if (disks) facts.disks = disks;
  const battery = soft(() => readPower(api));
  if (battery !== undefined) facts.battery = battery;
  const ticks = soft(() => toNumber(api.GetTickCount64()));
  if (ticks !== undefined && ticks >= 0) facts.uptimeSeconds = Math.floor(ticks / 1000);
  return facts;
}

/** The fixed drives by letter, C: first, at most 8. */
function readDrives(api: FactsWin32Api): NonNullable<ComputerFacts["disks"]> {
  const mask = api.GetLogicalDrives();
  const letters: string[] = [];
  for (let bit = 0; bit < 26; bit++) if (mask & (1 << bit)) letters.push(String.fromCharCode(65 + bit));
  letters.sort((a, b) => (a === "C" ? -1 : b === "C" ? 1 : a.localeCompare(b)));
  const disks: NonNullable<ComputerFacts["disks"]> = [];
  for (const letter of letters) {
    if (disks.length >= 8) break;
    const root = `${letter}:\\`;
    const drive = soft(() => {
      if (api.GetDriveTypeW(root) !== DRIVE_FIXED) return undefined;
      const free: U64[] = [0];
      const total: U64[] = [0];
      const totalFree: U64[] = [0];
      if (!api.GetDiskFreeSpaceExW(root, free, total, totalFree)) return undefined;
      const size = toNumber(total[0] ?? 0);
      return size > 0 ? { mount: `${letter}:`, size, free: Math.min(size, toNumber(free[0] ?? 0)) } : undefined;
    });
    if (drive) disks.push(drive);
  }
  return disks;
}

/** The battery: null when Windows says there is none; undefined when unknown. */
function readPower(api: FactsWin32Api): ComputerFacts["battery"] | undefined {
  const status = {} as SystemPowerStatus;
  if (!api.GetSystemPowerStatus(status)) return undefined;
  if (status.BatteryFlag === 128) return null;
  if (status.BatteryFlag === 255 || status.BatteryLifePercent > 100) return undefined;
  const charging = (status.BatteryFlag & 8) !== 0 ? true : status.ACLineStatus === 0 ? false : null;
  return { percent: status.BatteryLifePercent, charging };
}
