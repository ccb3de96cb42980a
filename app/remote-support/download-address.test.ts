/**
 * Issue 29: the address record a download carries (`download-address.ts`): written and read back, as a
 * trailer and as a zone; a damaged or cut record is reported (in French), never taken for an address.
 */
import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  ADDRESS_MAGIC,
  crc32,
  emptyAddressZone,
  encodeAddressRecord,
  encodeAddressZone,
  readAddressRecord,
  readAddressZone,
} from "./download-address.ts";

const SERVER = "https://atelier.example";
const executable = new Uint8Array(5_000).map((_, index) => (index * 7) & 0xff);
const withTrailer = (server: string) => new Uint8Array([...executable, ...encodeAddressRecord(server)]);

describe("the address trailer", () => {
  it("reads back the address written after a file", () => {
    expect(readAddressRecord(withTrailer(SERVER))).toEqual({ kind: "found", server: SERVER });
    expect(readAddressRecord(withTrailer("http://127.0.0.1:4173").slice(-4096))).toEqual({
      kind: "found",
      server: "http://127.0.0.1:4173",
    });
  });

  it("is magic, JSON, length and CRC-32, then the magic again", () => {
    const record = Buffer.from(encodeAddressRecord(SERVER));
    const json = JSON.stringify({ server: SERVER });
    expect(record.toString("latin1", 0, 16)).toBe(ADDRESS_MAGIC);
    expect(record.toString("utf8", 16, 16 + json.length)).toBe(json);
    expect(record.readUInt32LE(16 + json.length)).toBe(json.length);
    expect(record.readUInt32LE(20 + json.length)).toBe(zlibCrc32(record.subarray(0, 20 + json.length)));
    expect(record.toString("latin1", record.length - 16)).toBe(ADDRESS_MAGIC);
  });

  it("finds nothing in a file without one", () => {
    expect(readAddressRecord(executable)).toEqual({ kind: "none" });
    expect(readAddressRecord(new Uint8Array(0))).toEqual({ kind: "none" });
  });

  it("reports a damaged record instead of using it", () => {
    const file = withTrailer(SERVER);
    const flipped = file.slice();
    flipped[file.length - 30] = (flipped[file.length - 30] ?? 0) ^ 0x20; // a letter of the address
    expect(readAddressRecord(flipped)).toEqual({
      kind: "invalid",
      reason: expect.stringMatching(/incomplet ou modifié/),
    });
    const badLength = file.slice();
    badLength[file.length - 24] = 0xff;
    expect(readAddressRecord(badLength).kind).toBe("invalid");
  });

  it("reports a record cut short by an interrupted download", () => {
    const file = withTrailer(SERVER);
    for (const cut of [1, 10, 30]) expect(readAddressRecord(file.slice(0, -cut)).kind).toBe("invalid");
  });

  it("refuses an address that does not fit", () => {
    expect(() => encodeAddressRecord(`https://${"a".repeat(600)}.example`)).toThrow(/trop longue/);
  });
});

describe("the address zone (macOS Apple Silicon)", () => {
  it("keeps the zone's length and reads back the address", () => {
    const zone = encodeAddressZone(SERVER);
    expect(zone).toHaveLength(emptyAddressZone().length);
    expect(zone).toMatch(/^[\x21-\x7e]+$/);
    expect(readAddressZone(zone)).toEqual({ kind: "found", server: SERVER });
  });

  it("holds no address when empty, absent or not a zone", () => {
    expect(readAddressZone(emptyAddressZone())).toEqual({ kind: "none" });
    expect(readAddressZone(undefined)).toEqual({ kind: "none" });
    expect(readAddressZone("anything")).toEqual({ kind: "none" });
  });

  it("reports a damaged zone", () => {
    const zone = encodeAddressZone(SERVER);
    const damaged = zone.slice(0, 40) + (zone[40] === "A" ? "B" : "A") + zone.slice(41);
    expect(readAddressZone(damaged).kind).toBe("invalid");
    expect(readAddressZone(zone.slice(0, 60) + "!" + zone.slice(61)).kind).toBe("invalid");
  });
});

describe("crc32", () => {
  it("matches zlib's and continues from a previous value", () => {
    const data = Buffer.from("Bonjour 123 éàç");
    expect(crc32(data)).toBe(zlibCrc32(data));
    expect(crc32(data.subarray(5), crc32(data.subarray(0, 5)))).toBe(zlibCrc32(data));
  });
});
