/**
 * Issue 38 §2 « Files both ways, with consent »: the disk side of a transfer, with bounded memory (a file is
 * never held whole: one chunk at a time through a file handle).
 *
 * - `PartialFile` (receiving): `<Downloads>/<name>.partiel`, created new (never over an existing file), written at
 *   each chunk's offset in order, hashed as it goes (SHA-256, `node:crypto`, which Bun has too); at the end the
 *   hash is compared and the file takes its final name in the folder, a new one when the name is taken
 *   (« facture (1).pdf »): linked (which refuses an existing name) then unlinked, or renamed after a check where
 *   links are impossible (FAT, some network shares). `discard()` removes it (a cancel, a mismatch, a failure).
 * - `SourceFile` (sending): the customer's file opened for reading, read slice by slice, hashed once in order; the
 *   final hash reads the file again only when a resume broke that order.
 */
import { createHash, type Hash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, link, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { FILE_LIMITS, FILE_MESSAGES } from "#app/remote-support/file-protocol.ts";
import { freePath } from "./downloads.ts";

/** What the app says about the disk (French, shown as is). */
export const FILE_IO_MESSAGES = {
  noRoom: "Aucun nom libre pour ce fichier dans le dossier Téléchargements.",
  write: "Le fichier n'a pas pu être enregistré sur cet ordinateur.",
  notFile: "Ce chemin n'est pas un fichier.",
  unreadable: "Ce fichier ne peut pas être lu.",
  changed: "Le fichier a changé pendant l'envoi : envoyez-le de nouveau.",
} as const;

/** The extension of a file being received. */
export const PARTIAL_EXTENSION = ".partiel";

const exists = async (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** A file being received into the Downloads folder (see the module comment). */
export class PartialFile {
  /** The partial file's path (`<folder>/<name>.partiel`, or `<name> (1).partiel`…). */
  readonly path: string;
  readonly #folder: string;
  readonly #name: string;
  readonly #handle: FileHandle;
  readonly #hasher: Hash = createHash("sha256");
  #written = 0;
  #closed = false;

  private constructor(folder: string, name: string, file: string, handle: FileHandle) {
    this.#folder = folder;
    this.#name = name;
    this.path = file;
    this.#handle = handle;
  }

  /**
   * Creates the partial file of `name` (a name from the technician: only `safeFileName` of it is used) in
   * `folder`, which is created if missing. Throws an `Error` with a French message when no name is free.
   */
  static async create(folder: string, name: string): Promise<PartialFile> {
    await mkdir(folder, { recursive: true });
    for (let attempt = 0; attempt < 5; attempt++) {
      const file = freePath(folder, `${name}${PARTIAL_EXTENSION}`);
      if (!file) break;
      try {
        // "wx": created here, never an existing file (another transfer's, or a link planted there).
        return new PartialFile(folder, name, file, await open(file, "wx"));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST")
          throw new Error(FILE_IO_MESSAGES.write, { cause: error });
      }
    }
    throw new Error(FILE_IO_MESSAGES.noRoom);
  }

  /** Bytes written so far, in order from 0. */
  get written(): number {
    return this.#written;
  }

  /**
   * Writes `data` at `offset`, which must be the next byte (`written`), and hashes it. Throws (French message)
   * when out of order, past `size`, or the disk refuses.
   */
  async write(offset: number, data: Uint8Array, size: number): Promise<void> {
    if (offset !== this.#written || offset + data.byteLength > size) throw new Error(FILE_MESSAGES.outOfOrder);
    let done = 0;
    try {
      while (done < data.byteLength)
        done += (await this.#handle.write(data, done, data.byteLength - done, offset + done)).bytesWritten;
    } catch {
      throw new Error(FILE_IO_MESSAGES.write);
    }
    this.#hasher.update(data);
    this.#written += data.byteLength;
  }

  /**
   * Checks the file against `size` and `sha256` (hex); whole, it takes its final name in the folder (a new one if
   * taken) and its path is returned; else it is removed and the French reason thrown.
   */
  async finish(size: number, sha256: string): Promise<string> {
    await this.#close();
    const whole = this.#written === size && this.#hasher.digest("hex") === sha256;
    if (!whole) {
      await this.discard();
      throw new Error(FILE_MESSAGES.hashMismatch);
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const final = freePath(this.#folder, this.#name);
      if (!final) break;
      try {
        await link(this.path, final);
        await unlink(this.path).catch(() => {});
        return final;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EEXIST") continue;
        // No hard links on this file system: a rename, the name checked just before.
        if (await exists(final)) continue;
        await rename(this.path, final);
        return final;
      }
    }
    await this.discard();
    throw new Error(FILE_IO_MESSAGES.noRoom);
  }

  /** Closes and removes the partial file (a cancel, a mismatch, a failure). Never throws. */
  async discard(): Promise<void> {
    await this.#close();
    await unlink(this.path).catch(() => {});
  }

  async #close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#handle.close().catch(() => {});
  }
}

/** The customer's file being sent (see the module comment). */
export class SourceFile {
  readonly name: string;
  readonly size: number;
  readonly #handle: FileHandle;
  readonly #hasher: Hash = createHash("sha256");
  #hashed = 0;

  private constructor(name: string, size: number, handle: FileHandle) {
    this.name = name;
    this.size = size;
    this.#handle = handle;
  }

  /**
   * Opens `file` for reading. Throws an `Error` with a French message: not a regular file, unreadable, larger
   * than `FILE_LIMITS.maxFileBytes`.
   */
  static async open(file: string): Promise<SourceFile> {
    let handle: FileHandle;
    try {
      handle = await open(file, constants.O_RDONLY);
    } catch {
      throw new Error(FILE_IO_MESSAGES.unreadable);
    }
    const info = await handle.stat().catch(() => null);
    const refusal = !info?.isFile()
      ? FILE_IO_MESSAGES.notFile
      : info.size > FILE_LIMITS.maxFileBytes
        ? FILE_MESSAGES.tooLarge
        : null;
    if (refusal || !info) {
      await handle.close().catch(() => {});
      throw new Error(refusal ?? FILE_IO_MESSAGES.unreadable);
    }
    return new SourceFile(path.basename(file), info.size, handle);
  }

  /** The bytes at `offset` (at most `FILE_LIMITS.chunkBytes`), hashed when they are the next in order. */
  async slice(offset: number): Promise<Uint8Array> {
    const length = Math.min(FILE_LIMITS.chunkBytes, this.size - offset);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.#handle.read(buffer, 0, length, offset);
    if (bytesRead !== length) throw new Error(FILE_IO_MESSAGES.changed);
    if (offset === this.#hashed) {
      this.#hasher.update(buffer);
      this.#hashed += length;
    }
    return buffer;
  }

  /** The whole file's SHA-256 (hex); reads it again only when the running hash missed bytes (a resume). */
  async digest(): Promise<string> {
    if (this.#hashed === this.size) return this.#hasher.copy().digest("hex");
    const hasher = createHash("sha256");
    const buffer = Buffer.alloc(4 * FILE_LIMITS.chunkBytes);
    for (let offset = 0; offset < this.size;) {
      const { bytesRead } = await this.#handle.read(buffer, 0, Math.min(buffer.length, this.size - offset), offset);
      if (bytesRead === 0) throw new Error(FILE_IO_MESSAGES.changed);
      hasher.update(buffer.subarray(0, bytesRead));
      offset += bytesRead;
    }
    return hasher.digest("hex");
  }

  /** Closes the file. Never throws. */
  async close(): Promise<void> {
    await this.#handle.close().catch(() => {});
  }
}
