/**
 * The bytes a download of the desktop app is made of (issue 29, docs/decisions/023): the build's file,
 * the same for every server, then a short tail that depends on the server's own `PUBLIC_URL`.
 *
 * - `trailer` targets (Linux, Windows, macOS Intel): the tail is the address record
 *   (`#app/remote-support/download-address.ts`) appended after the whole file.
 * - `zone` targets (macOS Apple Silicon, ad hoc signed): the tail is the end of the file from the zone on,
 *   with the zone rewritten in place and the code signature's hashes of the page(s) it lies on recomputed,
 *   so the signature stays valid and still ends the file.
 *
 * The precompressed copies hold the bytes before `spliceAt` only, flushed to a byte boundary before their
 * end marker (`scripts/build-desktop.ts`). The tail is added without recompressing anything: brotli gets
 * it as uncompressed meta-blocks before a new last one (RFC 7932 §9.2), gzip as stored deflate blocks with
 * the CRC-32 and length of the whole (RFC 1951 §3.2.4, RFC 1952 §2.3). So the 35–48 MB copies are made
 * once per version, and any server serves them with its own address.
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import { crc32, encodeAddressRecord, encodeAddressZone } from "#app/remote-support/download-address.ts";

/** Where a build's address goes, written by the build into `manifest.json` (see the module comment). */
export type AddressPlacement = {
  method: "trailer" | "zone";
  /** Offset in the file from which the served bytes come from the tail; the file's size for a trailer. */
  spliceAt: number;
  /** `zone`: where the zone string lies in the file, in bytes (ASCII). */
  zone?: { offset: number; length: number };
  /** `zone`: the Mach-O CodeDirectory hash slots of the pages the zone touches. */
  pageHashes?: { pageOffset: number; pageSize: number; hashOffset: number; hashSize: number; algorithm: string }[];
};

/** What one server sends for one build. */
export type ServedBuild = {
  /** The bytes after `spliceAt`. */
  tail: Buffer;
  /** Size of what the customer saves: `spliceAt + tail.length`. */
  size: number;
  /** Short hash of the address, for the ETag. */
  tag: string;
};

function readRange(file: string, start: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const fd = openSync(file, "r");
  try {
    let read = 0;
    while (read < length) {
      const count = readSync(fd, buffer, read, length - read, start + read);
      if (count === 0) throw new Error(`${file} : fin de fichier inattendue`);
      read += count;
    }
  } finally {
    closeSync(fd);
  }
  return buffer;
}

/**
 * The tail of `file` (`fileSize` bytes) for `server`. For a zone target this reads the file from the zone
 * to its end (about 3 MB for macOS arm64): call it once per build and server, not per request.
 * @throws Error when the placement does not fit the file (a manifest from another build).
 */
export function servedBuild(file: string, fileSize: number, placement: AddressPlacement, server: string): ServedBuild {
  const tag = createHash("sha256").update(server).digest("hex").slice(0, 12);
  if (placement.method === "trailer") {
    if (placement.spliceAt !== fileSize) throw new Error(`${file} : taille inattendue`);
    const tail = Buffer.from(encodeAddressRecord(server));
    return { tail, size: fileSize + tail.length, tag };
  }
  const zone = placement.zone;
  if (!zone || zone.offset !== placement.spliceAt || zone.offset + zone.length > fileSize) {
    throw new Error(`${file} : zone d'adresse invalide`);
  }
  const text = Buffer.from(encodeAddressZone(server), "latin1");
  if (text.length !== zone.length) throw new Error(`${file} : zone d'adresse de ${zone.length} octets attendue`);
  const tail = readRange(file, placement.spliceAt, fileSize - placement.spliceAt);
  text.copy(tail, 0);
  for (const slot of placement.pageHashes ?? []) {
    const end = Math.min(slot.pageOffset + slot.pageSize, fileSize);
    if (slot.hashOffset < placement.spliceAt || slot.hashOffset + slot.hashSize > fileSize) {
      throw new Error(`${file} : empreinte de page hors de la fin du fichier`);
    }
    // The page as served: the file's bytes before the splice point, the tail's from it on.
    const page = Buffer.concat([
      slot.pageOffset < placement.spliceAt
        ? readRange(file, slot.pageOffset, Math.min(end, placement.spliceAt) - slot.pageOffset)
        : Buffer.alloc(0),
      tail.subarray(Math.max(0, slot.pageOffset - placement.spliceAt), end - placement.spliceAt),
    ]);
    const digest = createHash(slot.algorithm).update(page).digest().subarray(0, slot.hashSize);
    digest.copy(tail, slot.hashOffset - placement.spliceAt);
  }
  return { tail, size: placement.spliceAt + tail.length, tag };
}

/** Hex SHA-256 of what the customer saves: the file's first `spliceAt` bytes, then `tail` (streamed). */
export async function servedSha256(file: string, spliceAt: number, tail: Buffer): Promise<string> {
  const hash = createHash("sha256");
  if (spliceAt > 0) {
    for await (const chunk of createReadStream(file, { start: 0, end: spliceAt - 1 })) hash.update(chunk as Buffer);
  }
  return hash.update(tail).digest("hex");
}

/**
 * Brotli: what follows the copy's bytes once its last byte (the empty last meta-block, 0x03, after a
 * flush) is dropped: `tail` as uncompressed meta-blocks of at most 64 KiB, then a new empty last one.
 */
export function brotliTail(tail: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < tail.length; offset += 65_536) {
    const chunk = tail.subarray(offset, offset + 65_536);
    // ISLAST 0, MNIBBLES 4 (0b00), MLEN-1 on 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte boundary.
    const header = ((chunk.length - 1) << 3) | (1 << 19);
    parts.push(Buffer.from([header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff]), chunk);
  }
  parts.push(Buffer.from([0x03]));
  return Buffer.concat(parts);
}

/**
 * Gzip: what follows the copy's bytes once its last 10 (the empty final block `03 00` after a sync flush,
 * then CRC-32 and size) are dropped: `tail` as stored blocks, the last one final, then the CRC-32 and
 * size (mod 2³²) of the whole. `prefixCrc`: the CRC-32 of the bytes before the tail (the copy's footer).
 */
export function gzipTail(tail: Buffer, prefixCrc: number, totalSize: number): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  do {
    const chunk = tail.subarray(offset, offset + 65_535);
    offset += chunk.length;
    const header = Buffer.alloc(5);
    header[0] = offset >= tail.length ? 1 : 0; // BFINAL, BTYPE 00 (stored), then padding bits.
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    parts.push(header, chunk);
  } while (offset < tail.length);
  const footer = Buffer.alloc(8);
  footer.writeUInt32LE(crc32(tail, prefixCrc), 0);
  footer.writeUInt32LE(totalSize % 2 ** 32, 4);
  parts.push(footer);
  return Buffer.concat(parts);
}

/** How many bytes of a precompressed copy are kept before the tail's encoding. */
export const KEPT_FROM_END = { br: 1, gzip: 10 } as const;

/**
 * Checks that a copy ends as the build writes it (flushed, then an empty last block): brotli `03`,
 * gzip `03 00` + footer. Returns the gzip copy's CRC-32 (0 for brotli), or null when it does not.
 */
export function spliceableEnd(encoding: "br" | "gzip", file: string, size: number): { crc: number } | null {
  if (size < KEPT_FROM_END[encoding]) return null;
  const end = readRange(file, size - KEPT_FROM_END[encoding], KEPT_FROM_END[encoding]);
  if (encoding === "br") return end[0] === 0x03 ? { crc: 0 } : null;
  return end[0] === 0x03 && end[1] === 0x00 ? { crc: end.readUInt32LE(2) } : null;
}
