import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FolderHost, PrivateFolder, removeFolder, runCleaner } from "./private-folder.ts";

let temp: string;
let embedded: { file: string; name: string };

/** A host on `temp` for `platform`; `exits` collects the exit handlers, `cleaners` the cleaners started. */
function host(platform: NodeJS.Platform, running: readonly number[] = [], locked: readonly string[] = []) {
  const exits: (() => void)[] = [];
  const cleaners: string[] = [];
  const value: FolderHost = {
    platform,
    pid: 4242,
    temp,
    isRunning: (pid) => running.includes(pid),
    onExit: (fn) => exits.push(fn),
    startCleaner: (folder) => cleaners.push(folder),
    // A folder holding a loaded DLL cannot be deleted on Windows: `locked` ones stand for them.
    remove: (folder) => !locked.includes(folder) && removeFolder(folder),
  };
  return { value, exits, cleaners };
}

beforeEach(() => {
  temp = mkdtempSync(path.join(tmpdir(), "private-folder-test-"));
  const source = path.join(temp, "source.bin");
  writeFileSync(source, "native bytes");
  embedded = { file: source, name: "koffi.node" };
});

afterEach(() => {
  removeFolder(temp);
});

describe("the run's private folder (issue 36 §1)", () => {
  it("writes an embedded file to one private folder named after the process, made at the first file", () => {
    const { value } = host("linux");
    const folder = new PrivateFolder(value);
    expect(readdirSync(temp)).toEqual(["source.bin"]);
    const file = folder.write(embedded);
    const second = folder.write({ ...embedded, name: "libturbojpeg.so.0" });
    expect(path.dirname(file)).toBe(path.dirname(second));
    expect(path.basename(path.dirname(file))).toMatch(/^atelier-4242-[A-Za-z0-9]{6}$/);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).size).toBe("native bytes".length);
  });

  it("deletes a loaded file at once on Linux and the folder at exit", () => {
    const { value, exits, cleaners } = host("linux");
    const folder = new PrivateFolder(value);
    const file = folder.write(embedded);
    folder.releaseLoadedFile(file);
    expect(existsSync(file)).toBe(false);
    expect(exits).toHaveLength(1);
    exits[0]!();
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(cleaners).toEqual([]);
  });

  it("keeps a loaded file on Windows and, when the folder cannot go at exit, starts the cleaner on it", () => {
    const lockedFolders: string[] = [];
    const { value, exits, cleaners } = host("win32", [], lockedFolders);
    const folder = new PrivateFolder(value);
    const file = folder.write(embedded);
    folder.releaseLoadedFile(file);
    expect(existsSync(file)).toBe(true);
    lockedFolders.push(path.dirname(file));
    exits[0]!();
    expect(cleaners).toEqual([path.dirname(file)]);
  });

  it("on Windows removes the folder at exit itself when nothing holds it (no cleaner)", () => {
    const { value, exits, cleaners } = host("win32");
    const file = new PrivateFolder(value).write(embedded);
    exits[0]!();
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(cleaners).toEqual([]);
  });

  it("sweeps the folders of processes that are gone, keeps running ones, and old-style ones only once old", () => {
    const gone = path.join(temp, "atelier-111-AbCdEf");
    const alive = path.join(temp, "atelier-222-GhIjKl");
    const legacyOld = path.join(temp, "atelier-jpeg-Mn0pQr");
    const legacyNew = path.join(temp, "atelier-fenetre-StUvWx");
    const stranger = path.join(temp, "atelier-e2e-data");
    for (const folder of [gone, alive, legacyOld, legacyNew, stranger]) {
      mkdirSync(folder);
      writeFileSync(path.join(folder, "lib.so"), "");
    }
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    utimesSync(legacyOld, twoHoursAgo, twoHoursAgo);
    const folder = new PrivateFolder(host("linux", [222]).value);
    expect(folder.sweepLeftovers()).toBe(2);
    expect(readdirSync(temp).sort()).toEqual(
      ["atelier-222-GhIjKl", "atelier-e2e-data", "atelier-fenetre-StUvWx", "source.bin"].sort(),
    );
  });

  it("on Windows sweeps by trying (process ids are reused at once): a locked folder stays, never its own", () => {
    const other = path.join(temp, "atelier-32-AbCdEf");
    const inUse = path.join(temp, "atelier-33-GhIjKl");
    for (const name of [other, inUse]) {
      mkdirSync(name);
      writeFileSync(path.join(name, "koffi.node"), "");
    }
    const folder = new PrivateFolder(host("win32", [32, 33], [inUse]).value);
    const own = path.dirname(folder.write(embedded));
    expect(folder.sweepLeftovers()).toBe(1);
    expect(existsSync(other)).toBe(false);
    expect(existsSync(inUse)).toBe(true);
    expect(existsSync(own)).toBe(true);
  });
});

describe("the cleaner (`--nettoyer`)", () => {
  it("removes a private folder of the temporary folder", async () => {
    const target = path.join(temp, "atelier-77-AbCdEf");
    mkdirSync(target);
    writeFileSync(path.join(target, "koffi.node"), "");
    expect(await runCleaner([target], temp, 1_000)).toBe(0);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses anything else: another name, a folder elsewhere, nothing", async () => {
    const elsewhere = path.join(temp, "inner");
    mkdirSync(path.join(elsewhere, "atelier-77-AbCdEf"), { recursive: true });
    mkdirSync(path.join(temp, "documents"));
    expect(await runCleaner([path.join(elsewhere, "atelier-77-AbCdEf")], temp, 100)).toBe(1);
    expect(await runCleaner([path.join(temp, "documents")], temp, 100)).toBe(1);
    expect(await runCleaner([path.join(temp, "atelier-77-AbCdEf", "..", "documents")], temp, 100)).toBe(1);
    expect(await runCleaner([], temp, 100)).toBe(1);
    expect(existsSync(path.join(elsewhere, "atelier-77-AbCdEf"))).toBe(true);
    expect(existsSync(path.join(temp, "documents"))).toBe(true);
  });
});

describe("the window process's folder", () => {
  it("uses the app's folder handed down, and leaves its removal to the app", () => {
    const app = new PrivateFolder(host("linux").value);
    const appFolder = app.path();
    const window = host("linux");
    const child = new PrivateFolder({ ...window.value, pid: 5151, inherited: appFolder });
    expect(child.path()).toBe(appFolder);
    expect(window.exits).toEqual([]);
  });

  it("ignores a handed-down path of another form or elsewhere, and makes its own", () => {
    const elsewhere = path.join(temp, "inner", "atelier-1-AbCdEf");
    mkdirSync(elsewhere, { recursive: true });
    for (const inherited of [path.join(temp, "documents"), elsewhere, path.join(temp, "atelier-9-Missin")]) {
      const child = new PrivateFolder({ ...host("linux").value, pid: 5151, inherited });
      expect(path.basename(child.path())).toMatch(/^atelier-5151-/u);
    }
  });
});
