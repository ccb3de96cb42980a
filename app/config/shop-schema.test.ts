import { describe, expect, it } from "vitest";
import { defaultShop } from "./shop.ts";
import { identityFieldErrors, parseFrenchPhone, ShopIdentitySchema, toIdentityInput } from "./shop-schema.ts";

const valid = () => structuredClone(toIdentityInput(defaultShop));

function errorsOf(value: unknown): Record<string, string> {
  const parsed = ShopIdentitySchema.safeParse(value);
  if (parsed.success) throw new Error("expected a validation error");
  return identityFieldErrors(parsed.error);
}

describe("shop identity schema (issue 29)", () => {
  it("accepts the defaults and gives the phone for display and in E.164", () => {
    const parsed = ShopIdentitySchema.parse(valid());
    expect(parsed).toEqual(defaultShop);
    expect(parsed.phone).toEqual({ display: "01 99 00 12 34", e164: "+33199001234" });
  });

  it("reads French numbers as people type them", () => {
    for (const typed of ["0199001234", "01.99.00.12.34", "+33 1 99 00 12 34", "0033199001234", " 01-99-00-12-34 "]) {
      expect(parseFrenchPhone(typed.trim())).toEqual({ display: "01 99 00 12 34", e164: "+33199001234" });
    }
    for (const wrong of ["", "12345", "00 99 00 12 34", "+44 20 7946 0000", "01 99 00 12 345", "abc"]) {
      expect(parseFrenchPhone(wrong)).toBeUndefined();
    }
  });

  it("sorts and dedupes the days of an opening line", () => {
    const input = valid();
    input.openingHours = [{ days: [5, 1, 3, 1], opens: "09:00", closes: "12:00", byAppointment: false }];
    expect(ShopIdentitySchema.parse(input).openingHours[0]!.days).toEqual([1, 3, 5]);
  });

  it("answers each wrong field with its French message", () => {
    const input = valid() as Record<string, unknown> & ReturnType<typeof valid>;
    input.name = "   ";
    input.phone = "12 34";
    input.email = "pas-une-adresse";
    input.address = { ...input.address, postalCode: "7500" };
    input.openingHours = [
      { days: [], opens: "9h", closes: "12:00" },
      { days: [8], opens: "14:00", closes: "13:00" },
    ];
    input.legal = { ...input.legal, capitalEuros: -1, publicationDirector: "x".repeat(121) };
    expect(errorsOf(input)).toEqual({
      name: "Nom de la boutique : à renseigner.",
      phone: "Numéro de téléphone français attendu, par exemple 01 23 45 67 89.",
      email: "Adresse e-mail invalide, par exemple contact@exemple.fr.",
      "address.postalCode": "Code postal à 5 chiffres attendu, par exemple 75011.",
      "openingHours.0.days": "Cochez au moins un jour.",
      "openingHours.0.opens": "Heure attendue au format HH:MM, par exemple 09:00.",
      "openingHours.1.days.0": "Jour inconnu.",
      "openingHours.1.closes": "L'heure de fermeture doit suivre l'heure d'ouverture.",
      "legal.capitalEuros": "Le capital ne peut pas être négatif.",
      "legal.publicationDirector": "Directeur de la publication : 120 caractères au plus.",
    });
  });

  it("refuses an opening line that closes before it opens, under « closes »", () => {
    const input = valid();
    input.openingHours = [{ days: [1], opens: "14:00", closes: "09:00", byAppointment: false }];
    expect(errorsOf(input)).toEqual({
      "openingHours.0.closes": "L'heure de fermeture doit suivre l'heure d'ouverture.",
    });
  });

  it("refuses other shapes without throwing", () => {
    for (const value of [null, 42, "texte", [], { name: 1 }]) {
      expect(ShopIdentitySchema.safeParse(value).success).toBe(false);
    }
    const tooMany = valid();
    tooMany.openingHours = Array.from({ length: 15 }, () => ({ days: [1], opens: "09:00", closes: "10:00" }));
    expect(errorsOf(tooMany)).toEqual({ openingHours: "14 lignes d'horaires au plus." });
  });
});

describe("opening lines that overlap (issue 29: they are the booking's default hours too)", () => {
  it("are refused with the day named", () => {
    const input = structuredClone(toIdentityInput(defaultShop));
    input.openingHours = [
      { days: [1, 2], opens: "09:00", closes: "14:00", byAppointment: false },
      { days: [2], opens: "13:00", closes: "18:00", byAppointment: false },
    ];
    expect(errorsOf(input)).toEqual({ openingHours: "Deux lignes d'horaires du mardi se chevauchent." });
  });
});
