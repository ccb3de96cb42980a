/** Issue 13 §7: the one rule for text a person typed. */
import { describe, expect, it } from "vitest";
import { isTypableText, NAME_CONTROL_MESSAGE, nameString, typedString, UNTYPABLE_TEXT_MESSAGE } from "./text";

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

describe("nameString (issue 37 §6, §7)", () => {
  it("accepts a plain name with accents, apostrophes and emoji", () => {
    for (const name of ["iPhone 8", "Marie-Ève O'Brien", "Galaxy S21 Ultra 5G", "Café 😀"]) {
      expect(nameString().safeParse(name).success, name).toBe(true);
    }
  });

  it("refuses line breaks, C1 controls and invisible direction or width characters, in French", () => {
    for (const name of [
      "a\nb",
      "a\rb",
      "a\tb",
      "a\u0085b",
      "a\u009Bb",
      "Marie\u202E",
      "a\u2066b",
      "a\u200Bb",
      "a\u2028b",
    ]) {
      const result = nameString().safeParse(name);
      expect(result.success, JSON.stringify(name)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(NAME_CONTROL_MESSAGE);
    }
    expect(nameString().safeParse("a\u0000b").error?.issues[0]?.message).toBe(UNTYPABLE_TEXT_MESSAGE);
  });
});
