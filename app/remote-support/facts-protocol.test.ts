/**
 * Issue 38 §4, the computer's facts as a shared protocol: the schema's bounds (what the server accepts and what it
 * drops), the queue card's French short line and the rows the remote view and the report show.
 */
import { describe, expect, it } from "vitest";
import { DevicePairBody, DeviceSessionBody } from "./device-protocol.ts";
import {
  ComputerFacts,
  computerFactRows,
  computerSummary,
  FACTS_LIMITS,
  formatBytes,
  formatUptime,
  readComputerFacts,
} from "./facts-protocol.ts";

const GIB = 1024 ** 3;
const FACTS: ComputerFacts = {
  os: { name: "Windows 11", version: "10.0.22631" },
  model: "XPS 13 9310",
  cpu: { model: "Intel(R) Core(TM) i5-1135G7 @ 2.40GHz", cores: 8 },
  memory: { total: 8 * GIB, free: 3 * GIB },
  disks: [{ mount: "C:", size: 256 * GIB, free: 15 * GIB }],
  battery: { percent: 76, charging: true },
  uptimeSeconds: 3 * 86_400 + 4 * 3_600 + 60,
  screens: [{ width: 1920, height: 1080 }],
  elevated: false,
};
const STATUS = { injection: { ok: true }, screens: [{ id: "0", x: 0, y: 0, width: 1920, height: 1080 }] };

describe("the facts' schema", () => {
  it("accepts every fact, and none at all", () => {
    expect(ComputerFacts.parse(FACTS)).toEqual(FACTS);
    expect(ComputerFacts.parse({})).toEqual({});
  });

  it("drops what it has no field for: a serial number, a user name, an address never get through", () => {
    const parsed = ComputerFacts.parse({ ...FACTS, serialNumber: "5CG1234XYZ", userName: "marie", ip: "192.0.2.7" });
    expect(parsed).toEqual(FACTS);
    expect(JSON.stringify(parsed)).not.toMatch(/5CG1234XYZ|marie|192\.0\.2\.7/);
  });

  it("refuses lists, texts and numbers beyond their bounds", () => {
    const disk = { mount: "D:", size: GIB, free: GIB };
    expect(ComputerFacts.safeParse({ disks: Array(FACTS_LIMITS.disks + 1).fill(disk) }).success).toBe(false);
    const screen = { width: 800, height: 600 };
    expect(ComputerFacts.safeParse({ screens: Array(FACTS_LIMITS.screens + 1).fill(screen) }).success).toBe(false);
    expect(ComputerFacts.safeParse({ model: "x".repeat(FACTS_LIMITS.name + 1) }).success).toBe(false);
    expect(ComputerFacts.safeParse({ model: "XPS\u202E13" }).success).toBe(false);
    expect(ComputerFacts.safeParse({ memory: { total: -1 } }).success).toBe(false);
    expect(ComputerFacts.safeParse({ memory: { total: 2 ** 60 } }).success).toBe(false);
    expect(ComputerFacts.safeParse({ battery: { percent: 101 } }).success).toBe(false);
    expect(ComputerFacts.safeParse({ cpu: { cores: 0.5 } }).success).toBe(false);
    expect(readComputerFacts({ disks: "C:" })).toBeNull();
    expect(readComputerFacts(null)).toBeNull();
  });

  it("travels in the bodies the app sends to start or pair a session, optional there", () => {
    const base = { ...STATUS, computerName: "PC", platform: "windows", arch: "x64", appVersion: "1.0.0" };
    expect(DeviceSessionBody.parse({ ...base, facts: FACTS }).facts).toEqual(FACTS);
    expect(DeviceSessionBody.parse(base).facts).toBeUndefined();
    expect(DevicePairBody.parse({ ...base, pairingCode: "ACDE-3479", facts: FACTS }).facts).toEqual(FACTS);
    expect(DeviceSessionBody.safeParse({ ...base, facts: { disks: "C:" } }).success).toBe(false);
  });
});

describe("the queue card's short line", () => {
  it("says the system, the memory and how full the system's disk is, in French", () => {
    expect(computerSummary(FACTS)).toBe("Windows 11 · 8 Go · disque plein à 94 %");
  });

  it("leaves out what is not known, and is null with nothing to say", () => {
    expect(computerSummary({ os: { name: "Debian GNU/Linux 12" } })).toBe("Debian GNU/Linux 12");
    expect(computerSummary({ memory: { total: 512 * 1024 ** 2 } })).toBe("512 Mo");
    expect(computerSummary({ battery: null })).toBeNull();
  });
});

describe("the rows of the panel and the report", () => {
  it("name each known fact in French", () => {
    expect(computerFactRows(FACTS)).toEqual([
      { term: "Système", value: "Windows 11 (10.0.22631)" },
      { term: "Modèle", value: "XPS 13 9310" },
      { term: "Processeur", value: "Intel(R) Core(TM) i5-1135G7 @ 2.40GHz, 8 cœurs" },
      { term: "Mémoire", value: "8 Go (3 Go libres)" },
      { term: "Disque C:", value: "256 Go, 15 Go libres (plein à 94 %)" },
      { term: "Batterie", value: "76 % (en charge)" },
      { term: "Allumé depuis", value: "3 j 4 h" },
      { term: "Écran", value: "1920 × 1080" },
      { term: "Droits d'administrateur", value: "non" },
    ]);
    expect(computerFactRows({ battery: null })).toEqual([{ term: "Batterie", value: "aucune" }]);
  });

  it("format sizes and durations the French way", () => {
    expect(formatBytes(1.8 * 1024 ** 4)).toBe("1,8 To");
    expect(formatBytes(1_000 * GIB)).toMatch(/^1[\s\u202f]000 Go$/);
    expect(formatUptime(59)).toBe("0 min");
    expect(formatUptime(5 * 3_600 + 12 * 60)).toBe("5 h 12 min");
  });
});
