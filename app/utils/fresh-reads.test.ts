import { describe, expect, it } from "vitest";
import { FreshReads } from "./fresh-reads.ts";

describe("FreshReads", () => {
  it("applies the answer of the only read, when nothing changed meanwhile", () => {
    const reads = new FreshReads();
    expect(reads.verdict(reads.begin())).toBe("apply");
  });

  it("drops the answer of a read a newer one replaced, whatever order they arrive in", () => {
    const reads = new FreshReads();
    const older = reads.begin();
    const newer = reads.begin();
    expect(reads.verdict(newer)).toBe("apply");
    expect(reads.verdict(older)).toBe("drop");
  });

  it("reads again when the page learned something while the read was on its way", () => {
    const reads = new FreshReads();
    const ticket = reads.begin();
    reads.changed();
    expect(reads.verdict(ticket)).toBe("again");
    expect(reads.verdict(reads.begin())).toBe("apply");
  });
});
