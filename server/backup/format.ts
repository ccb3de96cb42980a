/**
 * The backup file (issue 29, docs/decisions/024): one gzip stream holding
 *
 * 1. a header, one line of JSON (`BackupHeader`): format and version, date,
 *    source engine, the applied migrations, and per table its columns and
 *    row count, and the sequences' values;
 * 2. per table, in the header's order (parents before children), its rows in
 *    PostgreSQL's COPY text format (one row a line: newlines and backslashes
 *    inside values are escaped, so no data line is ever `\.`), then a line `\.`;
 * 3. the line `-- fin de la sauvegarde`.
 *
 * The file can be read with `zcat` (or 7-Zip on Windows). gzip's own CRC-32
 * and length catch a damaged or truncated file; the end line and the row
 * counts catch a file cut at a gzip member boundary. `BackupFormatError`
 * carries a French message for the shop owner.
 */
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";

export const BACKUP_FORMAT = "atelier-sauvegarde";
export const BACKUP_VERSION = 1;
/** The line closing each table's rows (as in pg_dump's plain format). */
export const TABLE_END = "\\.";
/** The file's last line. */
export const FILE_END = "-- fin de la sauvegarde";

export type BackupTable = {
  /** Table name in the `public` schema. */
  name: string;
  /** Columns in COPY order. */
  columns: string[];
  /** Rows at the backup's snapshot. */
  rows: number;
};

export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** `embedded-postgres`, `pglite` or `postgres` (DATABASE_URL). */
  source: string;
  /** `server_version` of the source, e.g. `18.4`. */
  serverVersion: string;
  /** Applied drizzle migrations, oldest first: `createdAt` is the journal's `when` (ms), `tag` its name. */
  migrations: { tag: string; createdAt: number }[];
  /** Every table of the `public` schema, parents before the tables referencing them. */
  tables: BackupTable[];
  /** `schema.sequence` → last value (text: bigint). */
  sequences: { name: string; value: string }[];
};

/** A backup file that is not one, is damaged, truncated, or does not match its header. */
export class BackupFormatError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BackupFormatError";
  }
}

/** The first line of a backup file. */
export function headerLine(header: BackupHeader): string {
  return `${JSON.stringify(header)}\n`;
}

function parseHeader(line: Buffer): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line.toString("utf8")) as Partial<BackupHeader>;
  } catch (error) {
    throw new BackupFormatError("ce fichier n'est pas une sauvegarde du site (en-tête illisible)", { cause: error });
  }
  if (header.format !== BACKUP_FORMAT || !Array.isArray(header.tables) || !Array.isArray(header.migrations)) {
    throw new BackupFormatError("ce fichier n'est pas une sauvegarde du site (en-tête inconnu)");
  }
  if (header.version !== BACKUP_VERSION) {
    throw new BackupFormatError(
      `sauvegarde au format ${String(header.version)}, ce site lit le format ${BACKUP_VERSION} : ` +
        "restaurez-la avec la version du site qui l'a faite",
    );
  }
  return header as BackupHeader;
}

/**
 * The longest line a backup may hold, bytes (issue 37 §8): a row of any table here is far smaller (requests,
 * mails and reports are bounded at input); a longer line is a damaged or foreign file, refused at once.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The decompressed lines of `file`, each with its `\n` (the last one may lack it). Linear in the file's size:
 * each byte is searched once, and a line spanning chunks is joined once (issue 37 §8: a first line without a
 * newline took 76 s at 32 MB when every chunk re-scanned and re-copied what came before).
 * @throws BackupFormatError when a line is longer than `MAX_LINE_BYTES`.
 */
async function* lines(file: string): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  // pipeline destroys the gunzip stream with the read error, so the loop below throws it.
  pipeline(createReadStream(file), gunzip, () => undefined);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end + 1);
      if (pendingBytes + piece.length > MAX_LINE_BYTES) throw tooLong();
      yield pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      pending.push(Buffer.from(chunk.subarray(start)));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_LINE_BYTES) throw tooLong();
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

function tooLong(): BackupFormatError {
  return new BackupFormatError(
    `ligne de plus de ${MAX_LINE_BYTES / (1024 * 1024)} Mo : ce n'est pas une sauvegarde de ce site, ou elle est endommagée`,
  );
}

/** Receives one table's COPY text, batched (about 256 KB a call, whole lines). */
export type TableSink = (rows: AsyncIterable<Buffer>) => Promise<void>;

const isLine = (line: Buffer, text: string) => line.toString("utf8").replace(/\r?\n$/, "") === text;

/**
 * Reads `file` to its end: the header, then each table's rows handed to
 * `sinkFor(table)` (no sink: only counted), then the end line. Checks that
 * every table has exactly the rows its header says.
 * @returns the header.
 * @throws BackupFormatError (French) when the file is not a backup, is damaged or truncated,
 * or its rows differ from its header; any error of a sink as is.
 */
export async function readBackup(
  file: string,
  sinkFor?: (table: BackupTable, header: BackupHeader) => TableSink,
): Promise<BackupHeader> {
  const source = lines(file)[Symbol.asyncIterator]();
  const next = async (): Promise<Buffer | undefined> => {
    try {
      const item = await source.next();
      return item.done ? undefined : item.value;
    } catch (error) {
      if (error instanceof BackupFormatError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new BackupFormatError(`fichier introuvable : ${file}`, { cause: error });
      throw new BackupFormatError(
        code === "Z_BUF_ERROR"
          ? "sauvegarde tronquée (le fichier s'arrête avant sa fin) : prenez une autre sauvegarde"
          : `sauvegarde abîmée ou qui n'en est pas une (${(error as Error).message}) : prenez une autre sauvegarde`,
        { cause: error },
      );
    }
  };
  const first = await next();
  if (!first) throw new BackupFormatError("sauvegarde vide");
  const header = parseHeader(first);
  for (const table of header.tables) {
    let rows = 0;
    let ended = false;
    // One table's rows, read from the shared line source until its `\.` line.
    async function* batches(): AsyncGenerator<Buffer> {
      let batch: Buffer[] = [];
      let size = 0;
      for (let line = await next(); line; line = await next()) {
        if (isLine(line, TABLE_END)) {
          ended = true;
          break;
        }
        rows += 1;
        batch.push(line);
        size += line.length;
        if (size >= 256 * 1024) {
          yield Buffer.concat(batch);
          batch = [];
          size = 0;
        }
      }
      if (batch.length > 0) yield Buffer.concat(batch);
    }
    const sink = sinkFor?.(table, header);
    if (sink) await sink(batches());
    // Counted only, or a sink that stopped reading early: the rest of the table is read here.
    if (!ended) for await (const _ of batches()) void _;
    if (!ended) throw new BackupFormatError(`sauvegarde tronquée dans la table ${table.name}`);
    if (rows !== table.rows) {
      throw new BackupFormatError(
        `sauvegarde incohérente : ${rows} lignes pour la table ${table.name}, l'en-tête en annonce ${table.rows}`,
      );
    }
  }
  const last = await next();
  if (!last || !isLine(last, FILE_END)) throw new BackupFormatError("sauvegarde tronquée (fin absente)");
  if ((await next()) !== undefined) throw new BackupFormatError("sauvegarde abîmée (données après la fin)");
  return header;
}

/** Reads only the header of `file`. @throws BackupFormatError */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const source = lines(file);
  try {
    const item = await source.next();
    if (item.done) throw new BackupFormatError("sauvegarde vide");
    return parseHeader(item.value);
  } catch (error) {
    if (error instanceof BackupFormatError) throw error;
    throw new BackupFormatError(`sauvegarde illisible (${(error as Error).message})`, { cause: error });
  } finally {
    await source.return(undefined);
  }
}
