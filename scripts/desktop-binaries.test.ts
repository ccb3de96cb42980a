/**
 * Issue 15, "Tests": the executables of the systems this machine cannot run are checked by their
 * headers (PE for Windows, Mach-O for macOS, with the arm64 signature's page hashes), and the Linux
 * one is run from a folder without node_modules to show that koffi's native part is inside (issue 36:
 * loaded from the run's private temporary folder, which is gone after the exit).
 *
 * Issue 29: the builds carry no address; served by a server (`server/download-splice.ts`), the Linux one
 * runs with the address appended after it, and the macOS arm64 one, written into its zone, keeps an
 * ad hoc signature whose every page hash matches.
 *
 * The builds go to `node_modules/.cache/desktop-build/` without compression (build-desktop.ts skips
 * a target whose inputs did not change, so a second run only hashes the sources); the first run
 * fetches the other systems' runtimes from the npm registry (~140 MB, once).
 */
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readAddressZone } from "#app/remote-support/download-address.ts";
import { servedBuild } from "#server/download-splice.ts";
import type { DesktopManifest } from "#server/downloads.ts";
import { buildDesktop, DESKTOP_ENTRY } from "./build-desktop.ts";
import { CACHE_DIR, findTarget, ROOT, TARGETS } from "./desktop-targets.ts";
import { checkMachOSignature } from "./macho.ts";

const OUT_DIR = path.join(CACHE_DIR, "check-build");
const BUILD_TIMEOUT_MS = 300_000;
let manifest: DesktopManifest;

function built(target: string): Buffer {
  const entry = manifest.files.find((file) => file.target === target);
  if (!entry) throw new Error(`${target} absent du manifeste`);
  return readFileSync(path.join(OUT_DIR, entry.fileName));
}

describe.skipIf(!existsSync(DESKTOP_ENTRY))("desktop executables of every system", () => {
  beforeAll(async () => {
    manifest = await buildDesktop({
      targets: TARGETS,
      outDir: OUT_DIR,
      compress: "none",
      log: () => undefined,
    });
  }, BUILD_TIMEOUT_MS);

  it("lists one file per system, with the file's size and SHA-256", () => {
    expect(manifest.files.map((file) => file.fileName.replace(/^atelier-assistance-[^-]+-/, ""))).toEqual([
      "linux-x64",
      "windows-x64.exe",
      "macos-arm64",
      "macos-x64",
    ]);
    for (const file of manifest.files) {
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(file.bytes).toBeGreaterThan(50_000_000);
    }
  });

  it("Linux: an x86-64 ELF executable", () => {
    const file = built("linux-x64");
    expect(file.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    expect(file[4]).toBe(2); // 64-bit
    expect(file[5]).toBe(1); // little-endian
    expect(file.readUInt16LE(16)).toBe(2); // ET_EXEC
    expect(file.readUInt16LE(18)).toBe(0x3e); // EM_X86_64
  });

  it("Windows: a PE32+ console executable for x64", () => {
    const file = built("windows-x64");
    expect(file.subarray(0, 2).toString("latin1")).toBe("MZ");
    const pe = file.readUInt32LE(0x3c);
    expect(file.subarray(pe, pe + 4).toString("latin1")).toBe("PE\0\0");
    expect(file.readUInt16LE(pe + 4)).toBe(0x8664); // IMAGE_FILE_MACHINE_AMD64
    expect(file.readUInt16LE(pe + 24)).toBe(0x20b); // PE32+
    expect(file.readUInt16LE(pe + 24 + 68)).toBe(3); // IMAGE_SUBSYSTEM_WINDOWS_CUI: the app is a terminal
  });

  it.each([
    ["darwin-arm64", 0x0100000c],
    ["darwin-x64", 0x01000007],
  ])("macOS %s: a 64-bit Mach-O executable whose signature, if any, matches every page", (target, cpuType) => {
    const file = built(target);
    expect(file.readUInt32LE(0)).toBe(0xfeedfacf);
    expect(file.readUInt32LE(4)).toBe(cpuType);
    expect(file.readUInt32LE(12)).toBe(2); // MH_EXECUTE
    const signature = checkMachOSignature(file);
    if (target === "darwin-arm64") {
      // Apple Silicon kills unsigned or mis-signed code at launch: an ad hoc signature is a must.
      expect(signature).toMatchObject({ adhoc: true, badPages: 0, coversAllCode: true });
    } else if (signature) {
      expect(signature).toMatchObject({ badPages: 0, coversAllCode: true });
    }
  });

  it("macOS arm64 as a server sends it: the address in the zone, the ad hoc signature still valid (issue 29)", () => {
    const entry = manifest.files.find((file) => file.target === "darwin-arm64");
    if (!entry) throw new Error("darwin-arm64 absent du manifeste");
    expect(entry.address).toMatchObject({ method: "zone", spliceAt: entry.address.zone?.offset });
    expect(entry.address.pageHashes?.length).toBeGreaterThan(0);
    const file = built("darwin-arm64");
    const served = servedBuild(path.join(OUT_DIR, entry.fileName), entry.bytes, entry.address, "https://b.example");
    const whole = Buffer.concat([file.subarray(0, entry.address.spliceAt), served.tail]);
    expect(whole.length).toBe(file.length);
    const zone = entry.address.zone!;
    expect(readAddressZone(whole.toString("latin1", zone.offset, zone.offset + zone.length))).toEqual({
      kind: "found",
      server: "https://b.example",
    });
    expect(checkMachOSignature(whole)).toMatchObject({ adhoc: true, badPages: 0, coversAllCode: true });
    // The other systems get a trailer after the whole file.
    for (const other of manifest.files.filter((file) => file.target !== "darwin-arm64")) {
      expect(other.address, other.target).toEqual({ method: "trailer", spliceAt: other.bytes });
    }
  });

  it("embeds each system's own koffi native module", () => {
    for (const [target, native] of [
      ["linux-x64", "linux-x64/linux_x64/koffi.node"],
      ["windows-x64", "win32-x64/win32_x64/koffi.node"],
      ["darwin-arm64", "darwin-arm64/darwin_arm64/koffi.node"],
      ["darwin-x64", "darwin-x64/darwin_x64/koffi.node"],
    ] as const) {
      const [platform, relative] = native.split(/\/(.*)/s) as [string, string];
      const packages = path.join(CACHE_DIR, "packages");
      const installed = path.join(CACHE_DIR, "..", "..", "@koromix", `koffi-${platform}`, relative);
      const candidates = [path.join(packages, `@koromix+koffi-${platform}@3.3.4`, relative), installed];
      const koffiNode = candidates.find((candidate) => existsSync(candidate));
      if (!koffiNode) throw new Error(`koffi.node de ${target} introuvable`);
      // Its first 64 KB are enough to tell one platform's build from another's.
      expect(built(target).includes(readFileSync(koffiNode).subarray(0, 65_536)), target).toBe(true);
    }
  });
});

describe("the Linux executable outside the repository", () => {
  it(
    "loads koffi from inside itself and calls libc; reads the server address appended to it",
    async () => {
      // A probe entry beside node_modules (so `koffi` resolves at build time), built by the same pipeline.
      const probeDir = path.join(CACHE_DIR, "probe");
      mkdirSync(probeDir, { recursive: true });
      const probe = path.join(probeDir, "main.ts");
      writeFileSync(
        probe,
        [
          'import koffi from "koffi";',
          `import { embeddedServer, readFileTail } from ${JSON.stringify(path.join(ROOT, "desktop/src/embedded-address.ts"))};`,
          'import { readdirSync } from "node:fs";',
          'import { tmpdir } from "node:os";',
          'const getpid = koffi.load("libc.so.6").func("int getpid()");',
          "const { server } = embeddedServer({}, readFileTail(process.execPath), undefined);",
          "const temp = readdirSync(tmpdir());",
          "console.log(JSON.stringify({ koffi: koffi.version, pid: getpid() === process.pid, server, temp }));",
          "",
        ].join("\n"),
      );
      const target = findTarget("linux-x64");
      if (!target) throw new Error("cible linux-x64");
      const probeManifest = await buildDesktop({
        targets: [target],
        entry: probe,
        outDir: path.join(CACHE_DIR, "probe-build"),
        compress: "none",
        log: () => undefined,
      });
      const [entry] = probeManifest.files;
      if (!entry) throw new Error("aucun fichier construit");
      const alone = mkdtempSync(path.join(tmpdir(), "desktop-probe-"));
      try {
        const copy = path.join(alone, entry.fileName);
        copyFileSync(path.join(CACHE_DIR, "probe-build", entry.fileName), copy);
        // As the server sends it: the build, then the address record (Bun ignores bytes after its payload).
        appendFileSync(copy, servedBuild(copy, entry.bytes, entry.address, "https://atelier.example").tail);
        // Issue 36 §1: koffi's `.node` goes to the run's private folder (deleted once loaded), gone after exit.
        const temp = path.join(alone, "temp");
        mkdirSync(temp);
        const env = { PATH: "/usr/bin:/bin", TMPDIR: temp };
        const output = execFileSync(copy, { cwd: alone, encoding: "utf8", env });
        expect(JSON.parse(output)).toEqual({
          koffi: "3.3.4",
          pid: true,
          server: "https://atelier.example",
          temp: [expect.stringMatching(/^atelier-\d+-[A-Za-z0-9]{6}$/)],
        });
        expect(readdirSync(temp)).toEqual([]);
      } finally {
        rmSync(alone, { recursive: true, force: true });
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
