/**
 * Issue 40: a customer is told who joined their session by the technician's first name only (`technician-name.ts`),
 * read from the account's name, never more: one word, bounded, one line.
 */
import { describe, expect, it } from "vitest";
import { FIRST_NAME_MAX, firstNameOf, technicianJoinedText } from "./technician-name.ts";

describe("firstNameOf", () => {
  it("keeps the first word of the name only", () => {
    expect(firstNameOf("Julien Martin")).toBe("Julien");
    expect(firstNameOf("  Marie-Hélène   de la Tour ")).toBe("Marie-Hélène");
    expect(firstNameOf("Camille")).toBe("Camille");
  });

  it("gives nothing for no name, and cuts a first word longer than FIRST_NAME_MAX", () => {
    expect(firstNameOf(null)).toBeNull();
    expect(firstNameOf(undefined)).toBeNull();
    expect(firstNameOf("   ")).toBeNull();
    expect(firstNameOf(42)).toBeNull();
    expect(firstNameOf("é".repeat(FIRST_NAME_MAX + 10))).toBe("é".repeat(FIRST_NAME_MAX));
    // A name that reorders what follows it (issue 37 §7) is not shown.
    expect(firstNameOf("Jul\u202Eien")).toBeNull();
  });
});

describe("technicianJoinedText", () => {
  it("names the technician, or falls back to the sentence without a name", () => {
    expect(technicianJoinedText("Julien")).toBe("Julien, technicien de l'atelier, est connecté");
    expect(technicianJoinedText(null)).toBe("Un technicien est connecté");
  });
});
