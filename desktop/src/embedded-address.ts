/**
 * Where the app finds its server's address when `--server` is not given (issue 29, docs/decisions/023):
 * `ATELIER_SERVER` in the environment, else the record the server wrote into this download (a trailer
 * after the executable, or the zone of the bundle on macOS Apple Silicon), else nothing (the app then
 * asks for `--server`, in French). `--server` always wins (`cli.ts`).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { readAddressRecord, readAddressZone, TRAILER_SCAN_BYTES } from "#app/remote-support/download-address.ts";

/** The address found and where from; `warning`: a damaged record, in French, for stderr. */
export type EmbeddedServer = {
  server: string | undefined;
  source: "env" | "trailer" | "zone" | null;
  warning?: string;
};

/** The last `TRAILER_SCAN_BYTES` bytes of `file` (fewer for a smaller file); empty when it cannot be read. */
export function readFileTail(file: string): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    const length = Math.min(size, TRAILER_SCAN_BYTES);
    const tail = new Uint8Array(length);
    let read = 0;
    while (read < length) {
      const count = readSync(fd, tail, read, length - read, size - length + read);
      if (count === 0) break;
      read += count;
    }
    return tail.subarray(0, read);
  } catch {
    return new Uint8Array(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The default server: `env.ATELIER_SERVER`, else the trailer at the end of `tail` (the end of the
 * executable's own file), else `zone` (the bundle's zone string, undefined when run from the sources).
 * A damaged trailer or zone gives a French `warning` and is skipped.
 */
export function embeddedServer(env: NodeJS.ProcessEnv, tail: Uint8Array, zone: string | undefined): EmbeddedServer {
  const fromEnv = env.ATELIER_SERVER?.trim();
  if (fromEnv) return { server: fromEnv, source: "env" };
  const warnings: string[] = [];
  for (const [source, read] of [
    ["trailer", readAddressRecord(tail)],
    ["zone", readAddressZone(zone)],
  ] as const) {
    if (read.kind === "found") return { server: read.server, source, ...warningOf(warnings) };
    if (read.kind === "invalid") warnings.push(read.reason);
  }
  return { server: undefined, source: null, ...warningOf(warnings) };
}

function warningOf(reasons: readonly string[]): { warning?: string } {
  return reasons.length === 0
    ? {}
    : {
        warning:
          `Attention : ${reasons[0]}. Téléchargez de nouveau le logiciel depuis le site de l'Atelier, ` +
          "ou indiquez l'adresse avec --server.",
      };
}
