/**
 * Issue 38 §2 « Files both ways, with consent »: where received files go (the Downloads folder of each system)
 * and the names they get there: never outside the folder whatever the technician's name says, never over an
 * existing file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { downloadsFolder, freePath, parseUserDirs, targetPath } from "./downloads.ts";
import { knownDownloadsFolder, type KnownFolderApi } from "./windows-downloads-native.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const home = () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "maison-"));
  folders.push(folder);
  return folder;
};

describe("the Downloads folder", () => {
  it("on Linux: XDG_DOWNLOAD_DIR, else Téléchargements when it exists, else Downloads", async () => {
    const house = home();
    const linux = { platform: "linux" as const, env: {}, home: house };
    expect(await downloadsFolder(linux)).toBe(path.join(house, "Downloads"));
    mkdirSync(path.join(house, "Téléchargements"));
    expect(await downloadsFolder(linux)).toBe(path.join(house, "Téléchargements"));
    mkdirSync(path.join(house, ".config"));
    writeFileSync(
      path.join(house, ".config", "user-dirs.dirs"),
      '# écrit par xdg-user-dirs-update\nXDG_DESKTOP_DIR="$HOME/Bureau"\nXDG_DOWNLOAD_DIR="$HOME/Mes téléchargements"\n',
    );
    expect(await downloadsFolder(linux)).toBe(path.join(house, "Mes téléchargements"));
    expect(parseUserDirs('XDG_DOWNLOAD_DIR="$HOME/"', house)).toBeNull();
    expect(parseUserDirs('XDG_DOWNLOAD_DIR="/srv/partage"', house)).toBe("/srv/partage");
    expect(parseUserDirs('XDG_DOWNLOAD_DIR="relatif"', house)).toBeNull();
  });

  it("on Windows: the known folder, else %USERPROFILE%\\Downloads; on macOS: ~/Downloads", async () => {
    const env = { USERPROFILE: "C:\\Users\\Marie" };
    const moved = async () => "D:\\Données\\Téléchargements";
    expect(await downloadsFolder({ platform: "win32", env, home: "x", knownFolder: moved })).toBe(
      "D:\\Données\\Téléchargements",
    );
    const broken = async () => null;
    expect(await downloadsFolder({ platform: "win32", env, home: "x", knownFolder: broken })).toBe(
      "C:\\Users\\Marie\\Downloads",
    );
    expect(await downloadsFolder({ platform: "darwin", env: {}, home: "/Users/marie" })).toBe("/Users/marie/Downloads");
  });

  it("reads the known folder's path and frees it (a fake shell32/ole32 table)", async () => {
    const freed: unknown[] = [];
    const api = (result: number): KnownFolderApi => ({
      SHGetKnownFolderPath: (id, _flags, _token, out) => {
        expect(id.Data1).toBe(0x374de290);
        out[0] = "pointeur";
        return result;
      },
      CoTaskMemFree: (pointer) => void freed.push(pointer),
      decode: () => "C:\\Users\\Marie\\Downloads",
    });
    expect(await knownDownloadsFolder(api(0))).toBe("C:\\Users\\Marie\\Downloads");
    expect(await knownDownloadsFolder(api(-2147024894))).toBeNull();
    expect(freed).toEqual(["pointeur", "pointeur"]);
  });
});

describe("the name a received file gets", () => {
  it("is a bare name inside the folder, whatever path the technician sent", () => {
    expect(targetPath("/home/marie/Téléchargements", "../../.bashrc")).toBe("/home/marie/Téléchargements/.bashrc");
    expect(targetPath("/home/marie/Téléchargements", "..\\..\\x.exe")).toBe("/home/marie/Téléchargements/x.exe");
    expect(targetPath("/home/marie/Téléchargements", "/etc/passwd")).toBe("/home/marie/Téléchargements/passwd");
    expect(targetPath("/home/marie/Téléchargements", "..")).toBeNull();
  });

  it("is new when the name is taken: « facture (1).pdf », « facture (2).pdf »", () => {
    const folder = home();
    writeFileSync(path.join(folder, "facture.pdf"), "1");
    expect(freePath(folder, "facture.pdf")).toBe(path.join(folder, "facture (1).pdf"));
    writeFileSync(path.join(folder, "facture (1).pdf"), "2");
    expect(freePath(folder, "facture.pdf")).toBe(path.join(folder, "facture (2).pdf"));
    expect(targetPath(folder, "LISEZMOI", 1)).toBe(path.join(folder, "LISEZMOI (1)"));
    expect(targetPath(folder, "archive.tar.gz", 1)).toBe(path.join(folder, "archive.tar (1).gz"));
  });
});
