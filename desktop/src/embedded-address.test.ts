/**
 * Issue 29: which server the app uses without `--server` (`embedded-address.ts`): the environment, then
 * the download's trailer, then the zone; a damaged record gives a French warning and is skipped.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emptyAddressZone, encodeAddressRecord, encodeAddressZone } from "#app/remote-support/download-address.ts";
import { embeddedServer, readFileTail } from "./embedded-address.ts";

const dir = mkdtempSync(path.join(tmpdir(), "embedded-address-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const program = Buffer.alloc(10_000, 0x90);
const trailer = (server: string) => Buffer.concat([program, encodeAddressRecord(server)]);

describe("the app's default server", () => {
  it("reads the trailer at the end of its own file", () => {
    const file = path.join(dir, "atelier-assistance");
    writeFileSync(file, trailer("https://a.example"));
    expect(readFileTail(file)).toHaveLength(4096);
    expect(embeddedServer({}, readFileTail(file), emptyAddressZone())).toEqual({
      server: "https://a.example",
      source: "trailer",
    });
  });

  it("prefers ATELIER_SERVER, and falls back on the zone", () => {
    const tail = trailer("https://a.example");
    expect(embeddedServer({ ATELIER_SERVER: " https://env.example " }, tail, undefined)).toMatchObject({
      server: "https://env.example",
      source: "env",
    });
    expect(embeddedServer({}, program, encodeAddressZone("https://zone.example"))).toEqual({
      server: "https://zone.example",
      source: "zone",
    });
  });

  it("has none when run from the sources or from a build not downloaded from a server", () => {
    expect(embeddedServer({}, program, undefined)).toEqual({ server: undefined, source: null });
    expect(embeddedServer({}, program, emptyAddressZone())).toEqual({ server: undefined, source: null });
    expect(readFileTail(path.join(dir, "absent"))).toHaveLength(0);
  });

  it("warns in French and ignores a truncated download's trailer", () => {
    const cut = trailer("https://a.example").subarray(0, -5);
    const found = embeddedServer({}, cut, emptyAddressZone());
    expect(found).toMatchObject({ server: undefined, source: null });
    expect(found.warning).toMatch(
      /^Attention : le fichier semble incomplet ou modifié.*Téléchargez de nouveau.*--server/,
    );
  });
});
