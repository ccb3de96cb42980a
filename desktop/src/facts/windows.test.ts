/**
 * Issue 38 §4, the Windows and macOS collectors through fake tables of their system functions: Windows' version
 * (Windows 11 from its build number), model and processor from the registry (never a serial), memory, fixed drives by
 * letter, battery and uptime, each failing alone; koffi checks the x64 layouts of the structs. macOS' `sysctlbyname`
 * values (strings, 8-byte integers, `kern.boottime`'s timeval) and `statfs("/")`.
 */
import { describe, expect, it } from "vitest";
import { ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { loadKoffi } from "../input/koffi.ts";
import { readMacosFacts, type SysctlApi } from "./macos.ts";
import { BIOS_KEY, CPU_KEY, DRIVE_FIXED, HKEY_LOCAL_MACHINE, readWindowsFacts, windowsName } from "./windows.ts";
import {
  factsWin32Types,
  type FactsWin32Api,
  SIZEOF_MEMORYSTATUSEX,
  SIZEOF_OSVERSIONINFOW,
  SIZEOF_SYSTEM_POWER_STATUS,
} from "./windows-native.ts";

const GIB = 1024 ** 3;

/** A Windows 11 laptop as its system functions describe it; `overrides` replace single functions. */
function fakeWindows(overrides: Partial<FactsWin32Api> = {}): FactsWin32Api & { keys: string[] } {
  const registry: Record<string, string> = {
    [`${BIOS_KEY}|SystemProductName`]: "XPS 13 9310",
    [`${BIOS_KEY}|SystemManufacturer`]: "Dell Inc.",
    [`${BIOS_KEY}|SystemSerialNumber`]: "5CG1234XYZ",
    [`${CPU_KEY}|ProcessorNameString`]: "11th Gen Intel(R) Core(TM) i5-1135G7 @ 2.40GHz  ",
  };
  const keys: string[] = [];
  const drives: Record<string, { type: number; total: bigint; free: number }> = {
    "A:\\": { type: 2, total: 0n, free: 0 },
    "C:\\": { type: DRIVE_FIXED, total: BigInt(256 * GIB), free: 15 * GIB },
    "D:\\": { type: DRIVE_FIXED, total: BigInt(1024 * GIB), free: 900 * GIB },
    "E:\\": { type: 5, total: BigInt(4 * GIB), free: 0 },
  };
  return {
    keys,
    RtlGetVersion: (info) => {
      expect(info.dwOSVersionInfoSize).toBe(SIZEOF_OSVERSIONINFOW);
      Object.assign(info, { dwMajorVersion: 10, dwMinorVersion: 0, dwBuildNumber: 22631 });
      return 0;
    },
    RegGetValueW: (hkey, key, value, _flags, _type, data, size) => {
      expect(hkey).toBe(HKEY_LOCAL_MACHINE);
      keys.push(`${key}|${value}`);
      const text = registry[`${key}|${value}`];
      if (text === undefined) return 2; // ERROR_FILE_NOT_FOUND
      const bytes = Buffer.from(`${text}\0`, "utf16le");
      bytes.copy(data);
      size[0] = bytes.length;
      return 0;
    },
    GetActiveProcessorCount: () => 8,
    GlobalMemoryStatusEx: (status) => {
      expect(status.dwLength).toBe(SIZEOF_MEMORYSTATUSEX);
      Object.assign(status, { ullTotalPhys: BigInt(8 * GIB), ullAvailPhys: 3 * GIB });
      return true;
    },
    GetLogicalDrives: () => 0b11101, // A:, C:, D:, E:
    GetDriveTypeW: (root) => drives[root]?.type ?? 0,
    GetDiskFreeSpaceExW: (root, free, total, totalFree) => {
      const drive = drives[root]!;
      free[0] = drive.free;
      total[0] = drive.total;
      totalFree[0] = drive.free;
      return true;
    },
    GetSystemPowerStatus: (status) => {
      Object.assign(status, { ACLineStatus: 0, BatteryFlag: 2, BatteryLifePercent: 31 });
      return true;
    },
    GetTickCount64: () => BigInt(5 * 3_600_000 + 1_234),
    ...overrides,
  };
}

describe("the Windows collector", () => {
  it("reads every fact through the system's functions", () => {
    const api = fakeWindows();
    const facts = readWindowsFacts(api);
    expect(facts).toEqual({
      os: { name: "Windows 11", version: "10.0.22631" },
      model: "Dell Inc. XPS 13 9310",
      cpu: { model: "11th Gen Intel(R) Core(TM) i5-1135G7 @ 2.40GHz", cores: 8 },
      memory: { total: 8 * GIB, free: 3 * GIB },
      // Fixed drives only, by letter (never their labels).
      disks: [
        { mount: "C:", size: 256 * GIB, free: 15 * GIB },
        { mount: "D:", size: 1024 * GIB, free: 900 * GIB },
      ],
      battery: { percent: 31, charging: false },
      uptimeSeconds: 5 * 3_600 + 1,
    });
    expect(ComputerFacts.parse(facts)).toEqual(facts);
    expect(api.keys.some((key) => /Serial/i.test(key))).toBe(false);
  });

  it("names the versions, says when there is no battery, and leaves out what fails, alone", () => {
    expect(windowsName(10, 0, 19045)).toBe("Windows 10");
    expect(windowsName(6, 1, 7601)).toBe("Windows 7");
    const facts = readWindowsFacts(
      fakeWindows({
        RegGetValueW: () => {
          throw new Error("koffi");
        },
        GlobalMemoryStatusEx: () => false,
        GetSystemPowerStatus: (status) => {
          Object.assign(status, { ACLineStatus: 1, BatteryFlag: 128, BatteryLifePercent: 255 });
          return true;
        },
      }),
    );
    expect(facts.model).toBeUndefined();
    expect(facts.memory).toBeUndefined();
    expect(facts.cpu).toEqual({ model: null, cores: 8 });
    expect(facts.battery).toBeNull();
    expect(facts.os?.name).toBe("Windows 11");
  });

  it("declares the x64 layouts of MEMORYSTATUSEX, SYSTEM_POWER_STATUS and OSVERSIONINFOW", async () => {
    const koffi = await loadKoffi();
    const types = factsWin32Types(koffi);
    expect(koffi.sizeof(types.MEMORYSTATUSEX)).toBe(SIZEOF_MEMORYSTATUSEX);
    expect(koffi.sizeof(types.SYSTEM_POWER_STATUS)).toBe(SIZEOF_SYSTEM_POWER_STATUS);
    expect(koffi.sizeof(types.OSVERSIONINFOW)).toBe(SIZEOF_OSVERSIONINFOW);
    expect(koffi.offsetof(types.MEMORYSTATUSEX, "ullTotalPhys")).toBe(8);
  });
});

describe("the macOS collector", () => {
  const boot = Buffer.alloc(16);
  boot.writeBigInt64LE(1_700_000_000n, 0);
  const values: Record<string, Buffer> = {
    "kern.osproductversion": Buffer.from("14.5\0"),
    "kern.osversion": Buffer.from("23F79\0"),
    "hw.model": Buffer.from("MacBookAir10,1\0"),
    "machdep.cpu.brand_string": Buffer.from("Apple M1\0"),
    "hw.ncpu": Buffer.from([8, 0, 0, 0]),
    "hw.memsize": Buffer.from(new BigUint64Array([BigInt(16 * GIB)]).buffer),
    "kern.boottime": boot,
  };
  const api: SysctlApi = {
    sysctlbyname: (name, buffer, length) => {
      const value = values[name];
      if (!value) return -1;
      value.copy(buffer);
      length[0] = value.length;
      return 0;
    },
  };

  it("reads the facts through sysctlbyname, the free memory and the system volume", async () => {
    const facts = await readMacosFacts(api, {
      now: 1_700_000_000_000 + 7_200_500,
      freeMemory: () => 4 * GIB,
      statfs: async () => ({ bsize: 4096, blocks: (494 * GIB) / 4096, bavail: (100 * GIB) / 4096 }),
    });
    expect(facts).toEqual({
      os: { name: "macOS 14.5", version: "23F79" },
      model: "MacBookAir10,1",
      cpu: { model: "Apple M1", cores: 8 },
      memory: { total: 16 * GIB, free: 4 * GIB },
      uptimeSeconds: 7_200,
      disks: [{ mount: "/", size: 494 * GIB, free: 100 * GIB }],
    });
    expect(ComputerFacts.parse(facts)).toEqual(facts);
  });

  it("leaves out what cannot be read, without a throw", async () => {
    const failing: SysctlApi = { sysctlbyname: () => -1 };
    const facts = await readMacosFacts(failing, { statfs: () => Promise.reject(new Error("EIO")) });
    expect(facts).toEqual({});
  });
});
