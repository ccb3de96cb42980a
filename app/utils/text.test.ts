/** Issue 13 §7: the one rule for text a person typed. */
import { describe, expect, it } from "vitest";
import { isTypableText, typedString, UNTYPABLE_TEXT_MESSAGE } from "./text";

describe("isTypableText", () => {
  it("accepts what a keyboard writes: accents, emoji, tabs and line breaks", () => {
    for (const text of ["Léa Martin", "Écran cassé\r\nmerci\t!", "📱 iPhone 12", "", "a".repeat(5000)]) {
      expect(isTypableText(text)).toBe(true);
    }
  });

  it("refuses NUL, other C0 controls, lone surrogates and U+FFFD", () => {
    for (const text of ["L\u0000a", "\u0007", "\u001b[31m", "\u000b", "L\uD800a", "\uDC00", "fin\uD83D", "L\uFFFDa"]) {
      expect(isTypableText(text)).toBe(false);
    }
  });
});

describe("typedString", () => {
  it("refuses untypable text with the French message before trimming can hide it", () => {
    const schema = typedString().trim().min(1, { error: "vide" });
    expect(schema.safeParse("\u0000").error?.issues.map((issue) => issue.message)).toEqual([UNTYPABLE_TEXT_MESSAGE]);
    expect(schema.safeParse("  Léa  ").data).toBe("Léa");
  });
});
