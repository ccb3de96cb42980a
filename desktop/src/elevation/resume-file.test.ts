/**
 * Issue 36 §4: the resume ticket handed to the relaunched app in a private file, never through the environment:
 * a 0700 folder and a 0600 file, read once and deleted with its folder, and `--reprendre` unable to read or delete
 * a file this module did not write.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  RESUME_FILE_UNUSABLE,
  RESUME_FOLDER_PREFIX,
  removeResumeFile,
  takeResumeFile,
  writeResumeFile,
} from "./resume-file.ts";

const TICKET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO-_";
let temp: string;
beforeEach(() => {
  temp = mkdtempSync(path.join(tmpdir(), "reprise-test-"));
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

describe("the resume file", () => {
  it("is written in a private folder, read once, then gone with its folder", () => {
    const file = writeResumeFile({ ticket: TICKET, sessionCode: "ACDEFG" }, temp);
    const folder = path.dirname(file);
    expect(path.basename(folder).startsWith(RESUME_FOLDER_PREFIX)).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(takeResumeFile(file)).toEqual({ ticket: TICKET, sessionCode: "ACDEFG" });
    expect(existsSync(folder)).toBe(false);
    expect(() => takeResumeFile(file)).toThrow(RESUME_FILE_UNUSABLE);
  });

  it("is deleted even when its content is wrong, and refused in French", () => {
    const file = writeResumeFile({ ticket: TICKET, sessionCode: "ACDEFG" }, temp);
    writeFileSync(file, JSON.stringify({ ticket: "court", sessionCode: "ACDEFG" }));
    expect(() => takeResumeFile(file)).toThrow(RESUME_FILE_UNUSABLE);
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(RESUME_FILE_UNUSABLE).toMatch(/relancez le logiciel/);
  });

  it("never reads nor deletes a file it did not write", () => {
    const other = path.join(temp, "documents", "reprise.json");
    mkdirSync(path.dirname(other));
    writeFileSync(other, JSON.stringify({ ticket: TICKET, sessionCode: "ACDEFG" }));
    expect(() => takeResumeFile(other)).toThrow(RESUME_FILE_UNUSABLE);
    removeResumeFile(other);
    expect(existsSync(other)).toBe(true);
  });
});
