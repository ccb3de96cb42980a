/**
 * Issue 38 §4, the Linux collector against a fake `/proc`, `/sys` and `/etc` tree (a temporary folder given as the
 * root) and a fake `statfs`: every fact read from the system's files, no serial number nor user's folder, placeholders
 * and missing files left out without a throw; and `collectFacts` adding the screens and the elevation, dropping what
 * the schema refuses.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { collectFacts } from "./collect.ts";
import { type FsStats, readLinuxFacts } from "./linux.ts";

const GIB = 1024 ** 3;
let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "atelier-facts-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

const MOUNTS = [
  "sysfs /sys sysfs rw,nosuid 0 0",
  "/dev/nvme0n1p2 / ext4 rw,relatime 0 0",
  "/dev/nvme0n1p1 /boot/efi vfat rw 0 0",
  "/dev/nvme0n1p2 /var/lib/docker ext4 rw 0 0",
  "/dev/sda1 /media/marie/Cl\\040USB vfat rw 0 0",
  "/dev/sdb1 /home/marie/Données ext4 rw 0 0",
  "/dev/loop3 /snap/core/1 squashfs ro 0 0",
  "/dev/sdc1 /srv/sauvegardes btrfs rw 0 0",
  "",
].join("\n");
const STATS: Record<string, FsStats> = {
  "/": { bsize: 4096, blocks: (256 * GIB) / 4096, bavail: (15 * GIB) / 4096 },
  "/boot/efi": { bsize: 4096, blocks: (512 * 1024 ** 2) / 4096, bavail: (500 * 1024 ** 2) / 4096 },
  "/srv/sauvegardes": { bsize: 4096, blocks: (1024 * GIB) / 4096, bavail: (900 * GIB) / 4096 },
};
const statfs = async (mountPoint: string) => {
  const stats = STATS[mountPoint];
  if (!stats) throw new Error(`statfs ${mountPoint} inattendu`);
  return stats;
};

async function laptopTree(): Promise<void> {
  await put(
    "etc/os-release",
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n',
  );
  await put("proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  await put("sys/class/dmi/id/product_name", "XPS 13 9310\n");
  await put("sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
  await put("sys/class/dmi/id/product_serial", "5CG1234XYZ\n");
  const cpu = (n: number) => `processor\t: ${n}\nmodel name\t: 11th Gen Intel(R) Core(TM) i5-1135G7 @ 2.40GHz\n\n`;
  await put("proc/cpuinfo", [0, 1, 2, 3, 4, 5, 6, 7].map(cpu).join(""));
  await put("proc/meminfo", "MemTotal:        8000000 kB\nMemFree:          500000 kB\nMemAvailable:    3000000 kB\n");
  await put("proc/uptime", "273661.52 1093219.10\n");
  await put("proc/mounts", MOUNTS);
  await put("sys/class/power_supply/AC/type", "Mains\n");
  await put("sys/class/power_supply/hidpp_battery_0/type", "Battery\n");
  await put("sys/class/power_supply/hidpp_battery_0/scope", "Device\n");
  await put("sys/class/power_supply/hidpp_battery_0/capacity", "5\n");
  await put("sys/class/power_supply/BAT0/type", "Battery\n");
  await put("sys/class/power_supply/BAT0/capacity", "76\n");
  await put("sys/class/power_supply/BAT0/status", "Discharging\n");
}

describe("the Linux collector", () => {
  it("reads every fact from the system's files", async () => {
    await laptopTree();
    const facts = await readLinuxFacts({ root, statfs });
    expect(facts).toEqual({
      os: { name: "Debian GNU/Linux 12", version: "6.1.0-18-amd64" },
      model: "Dell Inc. XPS 13 9310",
      cpu: { model: "11th Gen Intel(R) Core(TM) i5-1135G7 @ 2.40GHz", cores: 8 },
      memory: { total: 8_000_000 * 1024, free: 3_000_000 * 1024 },
      uptimeSeconds: 273_661,
      // The root first, each device once, the removable disk under /media/marie and /home/marie left out.
      disks: [
        { mount: "/", size: 256 * GIB, free: 15 * GIB },
        { mount: "/boot/efi", size: 512 * 1024 ** 2, free: 500 * 1024 ** 2 },
        { mount: "/srv/sauvegardes", size: 1024 * GIB, free: 900 * GIB },
      ],
      // The laptop's battery, not the mouse's.
      battery: { percent: 76, charging: false },
    });
    expect(ComputerFacts.parse(facts)).toEqual(facts);
    expect(JSON.stringify(facts)).not.toMatch(/5CG1234XYZ|marie/);
  });

  it("says there is no battery on a desktop, and leaves out firmware placeholders and missing files", async () => {
    await put("sys/class/dmi/id/product_name", "To be filled by O.E.M.\n");
    await put("sys/class/power_supply/AC/type", "Mains\n");
    await put("proc/meminfo", "MemTotal: 16000000 kB\n");
    const facts = await readLinuxFacts({ root, statfs });
    expect(facts).toEqual({ battery: null, memory: { total: 16_000_000 * 1024, free: null } });
  });

  it("reads nothing from an empty tree, without a throw", async () => {
    expect(await readLinuxFacts({ root, statfs })).toEqual({});
  });
});

describe("collectFacts", () => {
  it("adds the screens in device pixels and whether the app runs as root, and keeps what the schema accepts", async () => {
    const facts = await collectFacts({
      platform: "linux",
      screens: [
        { id: "0", x: 0, y: 0, width: 1440, height: 900, scale: 2, primary: true },
        { id: "1", x: 1440, y: 0, width: 1920, height: 1080, scale: 1, primary: false },
      ],
      elevated: undefined,
      isRoot: () => false,
      read: async () => ({ os: { name: "Debian GNU/Linux 12" }, model: "x".repeat(500) }) as never,
    });
    expect(facts).toEqual({
      os: { name: "Debian GNU/Linux 12" },
      screens: [
        { width: 2880, height: 1800 },
        { width: 1920, height: 1080 },
      ],
      elevated: false,
    });
  });

  it("gives what it has when the system's reader fails or hangs", async () => {
    const screens = [{ id: "0", x: 0, y: 0, width: 800, height: 600, scale: 1, primary: true }];
    const failing = await collectFacts({
      platform: "linux",
      screens,
      elevated: true,
      read: () => Promise.reject(new Error("EIO")),
    });
    expect(failing).toEqual({ screens: [{ width: 800, height: 600 }], elevated: true });
    const hanging = await collectFacts({
      platform: "linux",
      screens,
      elevated: true,
      timeoutMs: 20,
      read: () => new Promise(() => {}),
    });
    expect(hanging).toEqual({ screens: [{ width: 800, height: 600 }], elevated: true });
  });
});
