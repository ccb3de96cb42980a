/**
 * The server address a download of the desktop app carries (issue 29, « One build for any address »,
 * docs/decisions/023). The executables are built once per version; the server writes its own
 * `PUBLIC_URL` into each download as it serves it, and the app reads it back at start. Shared by the
 * server (`server/download-splice.ts`), the build (`scripts/build-desktop.ts`) and the app
 * (`desktop/src/embedded-address.ts`). Pure: zod and standard JavaScript only (runs under Node and Bun).
 *
 * The record, in bytes: `MAGIC (16) | JSON { "server": "https://…" } (UTF-8, n ≤ 512) | n (u32 LE) |
 * CRC-32 of everything before it (u32 LE) | MAGIC (16)`. It travels two ways:
 * - **trailer**: appended after the executable (Linux, Windows, macOS Intel). Bun finds its own payload
 *   through the ELF/PE/Mach-O headers, not from the end of the file, so the bytes after it are ignored
 *   by the system and the runtime; the app reads the last `TRAILER_SCAN_BYTES` of its own file.
 * - **zone**: base64url text written in place into a fixed-size string of the bundle
 *   (`ADDRESS_ZONE_MARKER` + `ADDRESS_ZONE_PAYLOAD` characters), for macOS Apple Silicon, whose ad hoc
 *   signature must stay the last thing in the file (the server also rewrites the page hashes).
 *
 * The CRC only detects a truncated or damaged download. It is not a signature and proves nothing about
 * who wrote the address: anyone who can change the file can write another address and its CRC.
 */
import { z } from "zod";

/** 16 ASCII bytes at both ends of the record. */
export const ADDRESS_MAGIC = "ATELIER-ADRESSE1";
/** The longest JSON accepted, in bytes (an origin is far shorter). */
export const MAX_ADDRESS_JSON_BYTES = 512;
/** How many bytes from the end of its file the app reads to find a trailer. */
export const TRAILER_SCAN_BYTES = 4096;
/** Start of the zone string in the bundle; exactly one copy must be in each executable. */
export const ADDRESS_ZONE_MARKER = "@@ATELIER-ZONE1@@";
/** Characters after the marker: the record in base64url, then `.` up to this length. */
export const ADDRESS_ZONE_PAYLOAD = 800;
const ZONE_FILLER = ".";

const MAGIC_BYTES = new TextEncoder().encode(ADDRESS_MAGIC);
const FOOTER_BYTES = 8 + MAGIC_BYTES.length;
/** Size of a record holding `json` bytes of JSON. */
const recordSize = (jsonBytes: number) => MAGIC_BYTES.length + jsonBytes + FOOTER_BYTES;

const AddressJson = z.object({ server: z.string().min(1).max(300) });

/** What reading a record gave: nothing there, an address, or a damaged record (French reason). */
export type AddressRead = { kind: "none" } | { kind: "found"; server: string } | { kind: "invalid"; reason: string };

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let bit = 0; bit < 8; bit += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * CRC-32 (IEEE, as gzip and zlib's `crc32`) of `bytes`, continuing from `previous` (the CRC of what
 * came before, 0 for none), so a gzip footer's CRC can be extended over appended bytes.
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}

function sameBytes(a: Uint8Array, offset: number, b: Uint8Array): boolean {
  if (offset < 0 || offset + b.length > a.length) return false;
  return b.every((byte, index) => a[offset + index] === byte);
}

/**
 * The record for `server` (an origin such as "https://atelier.example").
 * @throws Error when the JSON would pass `MAX_ADDRESS_JSON_BYTES`.
 */
export function encodeAddressRecord(server: string): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify({ server }));
  if (json.length > MAX_ADDRESS_JSON_BYTES) throw new Error(`Adresse trop longue (${json.length} octets)`);
  const record = new Uint8Array(recordSize(json.length));
  record.set(MAGIC_BYTES, 0);
  record.set(json, MAGIC_BYTES.length);
  const view = new DataView(record.buffer);
  const lengthAt = MAGIC_BYTES.length + json.length;
  view.setUint32(lengthAt, json.length, true);
  view.setUint32(lengthAt + 4, crc32(record.subarray(0, lengthAt + 4)), true);
  record.set(MAGIC_BYTES, lengthAt + 8);
  return record;
}

const DAMAGED =
  "le fichier semble incomplet ou modifié (téléchargement interrompu ?) : l'adresse du serveur qu'il porte est ignorée";

/**
 * Reads the record ending exactly at the end of `tail` (the last bytes of a file, or a decoded zone).
 * A record whose magic is there but whose length, CRC or JSON is wrong is `invalid`; a record cut short
 * (a start magic near the end with no end magic) too. Never throws.
 */
export function readAddressRecord(tail: Uint8Array): AddressRead {
  if (!sameBytes(tail, tail.length - MAGIC_BYTES.length, MAGIC_BYTES)) {
    // A truncated download may have lost the end of its record but kept its start.
    const start = lastIndexOf(tail, MAGIC_BYTES);
    return start >= 0 && tail.length - start < recordSize(MAX_ADDRESS_JSON_BYTES)
      ? { kind: "invalid", reason: DAMAGED }
      : { kind: "none" };
  }
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const lengthAt = tail.length - FOOTER_BYTES;
  const jsonBytes = lengthAt >= 0 ? view.getUint32(lengthAt, true) : -1;
  const start = lengthAt - jsonBytes - MAGIC_BYTES.length;
  if (jsonBytes < 0 || jsonBytes > MAX_ADDRESS_JSON_BYTES || !sameBytes(tail, start, MAGIC_BYTES)) {
    return { kind: "invalid", reason: DAMAGED };
  }
  if (crc32(tail.subarray(start, lengthAt + 4)) !== view.getUint32(lengthAt + 4, true)) {
    return { kind: "invalid", reason: DAMAGED };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(tail.subarray(start + MAGIC_BYTES.length, lengthAt)),
    );
  } catch {
    return { kind: "invalid", reason: DAMAGED };
  }
  const address = AddressJson.safeParse(parsed);
  return address.success ? { kind: "found", server: address.data.server } : { kind: "invalid", reason: DAMAGED };
}

function lastIndexOf(haystack: Uint8Array, needle: Uint8Array): number {
  for (let index = haystack.length - needle.length; index >= 0; index -= 1) {
    if (sameBytes(haystack, index, needle)) return index;
  }
  return -1;
}

/** The zone as the build puts it into the bundle: marker, then only filler (no address). */
export function emptyAddressZone(): string {
  return ADDRESS_ZONE_MARKER + ZONE_FILLER.repeat(ADDRESS_ZONE_PAYLOAD);
}

/** The zone holding `server`'s record: the same length as `emptyAddressZone()`, ASCII only. */
export function encodeAddressZone(server: string): string {
  const record = encodeAddressRecord(server);
  const text = btoa(String.fromCharCode(...record))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
  return ADDRESS_ZONE_MARKER + text.padEnd(ADDRESS_ZONE_PAYLOAD, ZONE_FILLER);
}

/** Reads a zone string (`none` when it holds only filler, or is not a zone at all). Never throws. */
export function readAddressZone(zone: string | undefined): AddressRead {
  if (!zone?.startsWith(ADDRESS_ZONE_MARKER)) return { kind: "none" };
  const text = zone.slice(ADDRESS_ZONE_MARKER.length).replace(/\.+$/, "");
  if (text === "") return { kind: "none" };
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return { kind: "invalid", reason: DAMAGED };
  let binary: string;
  try {
    binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return { kind: "invalid", reason: DAMAGED };
  }
  return readAddressRecord(Uint8Array.from(binary, (character) => character.charCodeAt(0)));
}
