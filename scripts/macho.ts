/**
 * Mach-O code signatures of the macOS builds (issue 15, docs/decisions/011), read and fixed without
 * a Mac.
 *
 * Bun 1.4.5 re-signs its darwin-arm64 output ad hoc, correctly (every page hash matches). Its
 * darwin-x64 output, cross-compiled, keeps Oven's original signature (hardened runtime flag) over
 * bytes that changed: `codesign -v` says "invalid signature", Gatekeeper calls the file damaged,
 * and the kernel may kill it (upstream: oven-sh/bun#39837). An Intel Mac runs unsigned x86_64 code,
 * so the build removes that signature (what `codesign --remove-signature` does); the customer then
 * gets the same "unidentified developer" step as for the arm64 build.
 */
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;

type LoadCommand = { cmd: number; offset: number; size: number };

function loadCommands(file: Buffer): LoadCommand[] {
  if (file.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("pas un fichier Mach-O 64 bits");
  const count = file.readUInt32LE(16);
  const commands: LoadCommand[] = [];
  let offset = 32;
  for (let index = 0; index < count; index += 1) {
    const command = { cmd: file.readUInt32LE(offset), offset, size: file.readUInt32LE(offset + 4) };
    commands.push(command);
    offset += command.size;
  }
  return commands;
}

/** What a signature says of the file: ad hoc or not, and whether every page hash matches. */
export type MachOSignature = { adhoc: boolean; pages: number; badPages: number; coversAllCode: boolean };

/** Reads the embedded signature's CodeDirectory and checks its page hashes; null when unsigned. */
export function checkMachOSignature(file: Buffer): MachOSignature | null {
  const command = loadCommands(file).find((candidate) => candidate.cmd === LC_CODE_SIGNATURE);
  if (!command) return null;
  const dataOffset = file.readUInt32LE(command.offset + 8);
  // The signature's blobs are big-endian.
  if (file.readUInt32BE(dataOffset) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error("signature illisible");
  const count = file.readUInt32BE(dataOffset + 8);
  for (let index = 0; index < count; index += 1) {
    const type = file.readUInt32BE(dataOffset + 12 + index * 8);
    const directory = dataOffset + file.readUInt32BE(dataOffset + 16 + index * 8);
    if (type !== 0 || file.readUInt32BE(directory) !== CSMAGIC_CODEDIRECTORY) continue;
    const flags = file.readUInt32BE(directory + 12);
    const hashOffset = file.readUInt32BE(directory + 16);
    const pages = file.readUInt32BE(directory + 28);
    const codeLimit = file.readUInt32BE(directory + 32);
    const hashSize = file.readUInt8(directory + 36);
    const hashType = file.readUInt8(directory + 37);
    const pageSize = 2 ** file.readUInt8(directory + 39);
    const algorithm = hashType === 2 ? "sha256" : "sha1";
    let badPages = 0;
    for (let page = 0; page < pages; page += 1) {
      const start = page * pageSize;
      const digest = createHash(algorithm)
        .update(file.subarray(start, Math.min(start + pageSize, codeLimit)))
        .digest()
        .subarray(0, hashSize);
      const slot = directory + hashOffset + page * hashSize;
      if (!digest.equals(file.subarray(slot, slot + hashSize))) badPages += 1;
    }
    return { adhoc: (flags & 0x2) !== 0, pages, badPages, coversAllCode: codeLimit === dataOffset };
  }
  throw new Error("signature sans CodeDirectory");
}

/**
 * Removes the embedded signature: drops LC_CODE_SIGNATURE, shrinks __LINKEDIT to end where the
 * signature began, and returns the file cut there. The file is returned unchanged when unsigned.
 */
export function removeMachOSignature(file: Buffer): Buffer {
  const commands = loadCommands(file);
  const signature = commands.find((command) => command.cmd === LC_CODE_SIGNATURE);
  if (!signature) return file;
  const dataOffset = file.readUInt32LE(signature.offset + 8);
  const dataSize = file.readUInt32LE(signature.offset + 12);
  // The signature is the end of __LINKEDIT, the last segment, as every linker lays it out.
  if (dataOffset + dataSize > file.length) throw new Error("signature hors du fichier");
  const linkedit = commands.find(
    (command) =>
      command.cmd === LC_SEGMENT_64 &&
      file.toString("latin1", command.offset + 8, command.offset + 24).replace(/\0+$/, "") === "__LINKEDIT",
  );
  if (!linkedit) throw new Error("segment __LINKEDIT introuvable");
  const output = Buffer.from(file.subarray(0, dataOffset));
  const fileOffset = Number(output.readBigUInt64LE(linkedit.offset + 40));
  const fileSize = BigInt(dataOffset - fileOffset);
  output.writeBigUInt64LE(fileSize, linkedit.offset + 48);
  const vmSize = ((fileSize + 0xfffn) / 0x1000n) * 0x1000n;
  if (vmSize < output.readBigUInt64LE(linkedit.offset + 32)) output.writeBigUInt64LE(vmSize, linkedit.offset + 32);
  // Load commands after the signature's move up; the freed bytes become zeros (header padding).
  const end = 32 + output.readUInt32LE(20);
  output.copy(output, signature.offset, signature.offset + signature.size, end);
  output.fill(0, end - signature.size, end);
  output.writeUInt32LE(output.readUInt32LE(16) - 1, 16);
  output.writeUInt32LE(output.readUInt32LE(20) - signature.size, 20);
  return output;
}

/** Where a page's hash lies in a CodeDirectory (file offsets; what `server/download-splice.ts` rewrites). */
export type PageHashSlot = {
  pageOffset: number;
  pageSize: number;
  hashOffset: number;
  hashSize: number;
  algorithm: string;
};

/**
 * Issue 29 (docs/decisions/023): the hash slots, in every CodeDirectory of the embedded signature (the
 * primary one and any alternate), of the pages that bytes `[offset, offset + length)` lie on. Writing
 * those bytes and the pages' new hashes keeps an ad hoc signature valid: it has no CMS blob, so nothing
 * else depends on the CodeDirectory's bytes. Empty when the file is unsigned.
 * @throws Error when the range is not covered by the signature (beyond its code limit).
 */
export function codePageSlots(file: Buffer, offset: number, length: number): PageHashSlot[] {
  const command = loadCommands(file).find((candidate) => candidate.cmd === LC_CODE_SIGNATURE);
  if (!command) return [];
  const dataOffset = file.readUInt32LE(command.offset + 8);
  if (file.readUInt32BE(dataOffset) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error("signature illisible");
  const slots: PageHashSlot[] = [];
  const count = file.readUInt32BE(dataOffset + 8);
  for (let index = 0; index < count; index += 1) {
    const type = file.readUInt32BE(dataOffset + 12 + index * 8);
    const directory = dataOffset + file.readUInt32BE(dataOffset + 16 + index * 8);
    // Slot 0 is the CodeDirectory, 0x1000–0x1004 its alternates (e.g. SHA-1 beside SHA-256).
    if ((type !== 0 && (type < 0x1000 || type > 0x1004)) || file.readUInt32BE(directory) !== CSMAGIC_CODEDIRECTORY) {
      continue;
    }
    const hashOffset = file.readUInt32BE(directory + 16);
    const codeLimit = file.readUInt32BE(directory + 32);
    const hashSize = file.readUInt8(directory + 36);
    const hashType = file.readUInt8(directory + 37);
    const pageSize = 2 ** file.readUInt8(directory + 39);
    if (offset + length > codeLimit) throw new Error("zone hors du code signé");
    if (hashType !== 1 && hashType !== 2) throw new Error(`type d'empreinte inconnu (${hashType})`);
    for (let page = Math.floor(offset / pageSize); page * pageSize < offset + length; page += 1) {
      slots.push({
        pageOffset: page * pageSize,
        // The last page stops at the code limit.
        pageSize: Math.min(pageSize, codeLimit - page * pageSize),
        hashOffset: directory + hashOffset + page * hashSize,
        hashSize,
        algorithm: hashType === 2 ? "sha256" : "sha1",
      });
    }
  }
  return slots;
}
