import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackupFormatError, MAX_LINE_BYTES, readBackupHeader } from "./format.ts";

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "backup-lines-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("a backup file's lines (issue 37 §8)", () => {
  it("refuses a first line that never ends, in French, without reading it to the end", async () => {
    // 48 MB of one line in a 50 KB file: the former reader re-scanned and re-copied it at every chunk (minutes).
    const file = path.join(folder, "sans-fin.gz");
    await writeFile(file, gzipSync(Buffer.alloc(3 * MAX_LINE_BYTES, 0x61)));
    const refused = await readBackupHeader(file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackupFormatError);
    expect((refused as Error).message).toMatch(/ligne de plus de 16 Mo/u);
  });

  it("still reads a header line that spans many chunks", async () => {
    const file = path.join(folder, "longue.gz");
    // A JSON line of ~1 MB (far more than one gunzip chunk), then a newline: a foreign header, refused as such.
    const header = JSON.stringify({ format: "autre", padding: "x".repeat(1_000_000) });
    await writeFile(file, gzipSync(`${header}\nsuite\n`));
    const refused = await readBackupHeader(file).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackupFormatError);
    expect((refused as Error).message).toMatch(/n'est pas une sauvegarde du site/u);
  });
});
