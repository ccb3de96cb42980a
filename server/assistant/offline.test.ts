/**
 * The offline assistant (issue 7): French answers from the catalogue and the
 * shop's facts only, their pages as named links and no « assistant
 * automatique » sentence first (issue 40).
 */
import { describe, expect, it } from "vitest";
import { ASSISTANT_MESSAGES } from "#app/assistant/protocol.ts";
import {
  formatAddress,
  formatEuros,
  formatOpeningHours,
  defaultShop as shop,
  TECHNICIAN_HOURLY_RATE_EUROS,
} from "#app/config/shop.ts";
import { formatPrice, getModel, brands as SEED_BRANDS } from "#app/catalogue/index.ts";
import { AUTOMATIC_NOTICE } from "#app/assistant/reply-links.ts";
import { NOT_FOUND_TEXT, offlineAnswer } from "./offline.ts";
import { lookupRepairPrice } from "./knowledge.ts";

/** Whole euros of one repair of one model in the catalogue (the pages' source). */
function catalogueEuros(modelSlug: string, repairId: string): number {
  const repair = getModel(modelSlug)?.model.repairs.find((candidate) => candidate.id === repairId);
  if (!repair) throw new Error(`${modelSlug} ${repairId}`);
  return repair.euros;
}

describe("offlineAnswer", () => {
  it("quotes the PS5's HDMI port from the catalogue (89 €, spec table) with its page", () => {
    const answer = offlineAnswer("Combien coûte le port HDMI d'une PS5 ?", SEED_BRANDS);
    expect(catalogueEuros("ps5", "port-hdmi")).toBe(89);
    expect(answer).toContain(`Port HDMI : ${formatPrice(89)}`);
    expect(answer).toContain("[Réparation PlayStation : PS5](/services/playstation-repair#ps5)");
    expect(answer).not.toContain("Lecteur Blu-ray");
    // Issue 40: the chat says who speaks; the answer starts with the answer.
    expect(answer).not.toContain(AUTOMATIC_NOTICE);
    expect(answer.startsWith("Pour votre PS5 (PlayStation) :")).toBe(true);
  });

  it("quotes the Switch OLED's screen (169 €, spec table)", () => {
    const answer = offlineAnswer("écran Switch OLED", SEED_BRANDS);
    expect(catalogueEuros("switch-oled", "ecran")).toBe(169);
    expect(answer).toContain(`Écran : ${formatPrice(169)}`);
    expect(answer).toContain("/services/nintendo-repair#switch-oled");
  });

  it("lists every repair of a model when no repair is named, and flags estimates", () => {
    const answer = offlineAnswer("Vous réparez l'iPhone 13 ?", SEED_BRANDS);
    const lookup = lookupRepairPrice("iPhone 13", SEED_BRANDS);
    if (lookup.kind !== "found") throw new Error("catalogue");
    for (const repair of lookup.model.repairs) expect(answer).toContain(`${repair.repair} : ${repair.price}`);
    expect(answer).toContain("tarif indicatif");
  });

  it("gives the opening hours, the address and the phone", () => {
    const hours = offlineAnswer("Quels sont vos horaires d'ouverture ?", SEED_BRANDS);
    for (const line of formatOpeningHours(shop.openingHours)) expect(hours).toContain(line);
    expect(offlineAnswer("Quelle est votre adresse ?", SEED_BRANDS)).toContain(formatAddress(shop.address));
    expect(offlineAnswer("Comment vous appeler ?", SEED_BRANDS)).toContain(shop.phone.display);
  });

  it("explains how to start a remote session", () => {
    expect(offlineAnswer("Comment faire une prise en main à distance ?", SEED_BRANDS)).toContain(
      "Démarrer une session d'assistance",
    );
  });

  it("proposes the shop or a technician for anything else", () => {
    const answer = offlineAnswer("Quelle est la capitale du Pérou ?", SEED_BRANDS);
    expect(answer.startsWith("Je ne sais pas répondre précisément")).toBe(true);
    expect(answer).toContain(shop.phone.display);
    expect(answer).toMatch(/technicien/);
    // Issue 18 §4: the button under the conversation hands it over to a technician.
    expect(answer).toContain("« Parler à un technicien »");
    expect(answer).not.toMatch(/€/);
  });

  it("says so when the model is unknown instead of guessing a price", () => {
    const answer = offlineAnswer("Combien pour l'écran d'un Nokia 3310 ?", SEED_BRANDS);
    expect(answer).toContain("Je n'ai pas trouvé ce modèle");
    expect(answer).not.toMatch(/\d+ €/);
  });

  it("answers an empty message with the spec's sentence", () => {
    expect(offlineAnswer("   ", SEED_BRANDS)).toBe(ASSISTANT_MESSAGES.emptyMessage);
  });

  // Issue 17 §1: the model whose whole name best covers the question, never a neighbour's price.
  it.each([
    ["Combien pour l'écran de ma Redmi Pad SE ?", "xiaomi-redmi-pad-se", "ecran"],
    ["Le ventilateur de ma Xbox One X", "xbox-one-x", "ventilateur"],
    ["redmipad se ecran", "xiaomi-redmi-pad-se", "ecran"],
    ["écran iphone 13 promax", "iphone-13-pro-max", "ecran"],
  ])("%s → the price of that model", (question, slug, repairId) => {
    const answer = offlineAnswer(question, SEED_BRANDS);
    const model = getModel(slug)!.model;
    expect(answer).toContain(`Pour votre ${model.name} `);
    expect(answer).toContain(formatPrice(catalogueEuros(slug, repairId)));
  });

  // Issue 18: the hand probes of issue 17's note; the first gave the Galaxy A13's screen (the "a" of "a l'écran").
  it.each([
    ["Mon iPhone 13 a l'écran cassé", "iphone-13", "ecran"],
    ["Mon Galaxy S22 a l'écran noir", "galaxy-s22", "ecran"],
    ["Ma PS5 ne lit plus les disques", "ps5", "lecteur-blu-ray"],
    ["vitre cassée iPhone 13", "iphone-13", "ecran"],
    ["Le dos de mon iPhone 13 est cassé", "iphone-13", "vitre-arriere"],
    ["Ma Xbox One ne lit plus les DVD", "xbox-one", "lecteur-blu-ray"],
    ["ma Switch ne charge plus", "switch", "port-usb-c"],
    ["la manette de ma Switch a du drift", "switch", "joy-con"],
    ["ma PS4 surchauffe", "ps4", "ventilateur"],
    ["Galaxy Fold 5 écran", "galaxy-z-fold5", "ecran"],
    ["écran tablette Samsung A9", "galaxy-tab-a9", "ecran"],
    ["batterie iPad Air 2022", "ipad-air-5-2022", "batterie"],
    ["batterie iPad 9e génération", "ipad-9-2021", "batterie"],
  ])("%s → the price of the repair meant", (question, slug, repairId) => {
    const answer = offlineAnswer(question, SEED_BRANDS);
    const model = getModel(slug)!.model;
    expect(answer).toContain(`Pour votre ${model.name} `);
    const label = model.repairs.find((repair) => repair.id === repairId)!.label;
    expect(answer).toContain(`- ${label} : ${formatPrice(catalogueEuros(slug, repairId))}`);
  });

  it("keeps a lone « a » before a number as the model's letter (Galaxy Tab A 10.1)", () => {
    expect(offlineAnswer("écran Galaxy Tab A 10.1", SEED_BRANDS)).toContain("Pour votre Galaxy Tab A 10.1 (2019) ");
  });

  it("answers each model of a question naming several, with the repair named once", () => {
    const answer = offlineAnswer("la batterie d'un iPhone 11 et d'un iPhone 12", SEED_BRANDS);
    expect(answer).toContain(
      `Pour votre iPhone 11 (Apple) :\n- Batterie : ${formatPrice(catalogueEuros("iphone-11", "batterie"))}`,
    );
    expect(answer).toContain(
      `Pour votre iPhone 12 (Apple) :\n- Batterie : ${formatPrice(catalogueEuros("iphone-12", "batterie"))}`,
    );
    expect(answer).toContain("/rendez-vous?modele=iphone-11&reparation=batterie");
    expect(answer).toContain("/rendez-vous?modele=iphone-12&reparation=batterie");
  });

  it("quotes every repair a question names, and only those (« vitre arrière et écran », « caméra arrière »)", () => {
    const both = offlineAnswer("mon iPhone 11 a la vitre arrière et l'écran cassés", SEED_BRANDS);
    expect(both).toContain(`- Écran : ${formatPrice(catalogueEuros("iphone-11", "ecran"))}`);
    expect(both).toContain(`- Vitre arrière : ${formatPrice(catalogueEuros("iphone-11", "vitre-arriere"))}`);
    expect(both).not.toContain("- Batterie");
    const rear = offlineAnswer("caméra arrière iPhone 13", SEED_BRANDS);
    expect(rear).toContain("- Caméra arrière");
    expect(rear).not.toContain("- Caméra avant");
  });

  it.each(["Mon PC portable ne charge plus", "Combien pour l'écran de mon MacBook Air ?", "mon ordinateur a un virus"])(
    "%s: a computer gets the PC repair page and a free diagnosis, no price and no « modèle non trouvé »",
    (question) => {
      const answer = offlineAnswer(question, SEED_BRANDS);
      expect(answer).toContain("[Réparation PC](/services/pc-repair)");
      expect(answer).toContain("[Prendre rendez-vous pour un diagnostic gratuit](/rendez-vous)");
      expect(answer).not.toContain(NOT_FOUND_TEXT);
      expect(answer).not.toMatch(/\d+\s?€/);
      expect(answer).not.toContain("/services/ipad-repair");
    },
  );

  it("reads a number alone after a model as the same line's model (« iPhone 12 ou 13 »)", () => {
    const answer = offlineAnswer("écran iphone 12 ou 13", SEED_BRANDS);
    expect(answer).toContain(
      `Pour votre iPhone 12 (Apple) :\n- Écran : ${formatPrice(catalogueEuros("iphone-12", "ecran"))}`,
    );
    expect(answer).toContain(
      `Pour votre iPhone 13 (Apple) :\n- Écran : ${formatPrice(catalogueEuros("iphone-13", "ecran"))}`,
    );
  });

  it("asks for the model when only the line is named, with the brand's page (« mon iPhone a l'écran cassé »)", () => {
    const answer = offlineAnswer("mon iPhone a l'écran cassé", SEED_BRANDS);
    expect(answer).toContain("Indiquez la marque et le modèle exacts");
    expect(answer).toContain("/services/iphone-repair");
    expect(answer).not.toMatch(/\d+\s?€/);
  });

  it("gives the exact name's price and lists its variants with theirs (« ma PS4 », « Switch »)", () => {
    const answer = offlineAnswer("Combien pour le ventilateur de ma PS4 ?", SEED_BRANDS);
    expect(answer).toContain(
      `Pour votre PS4 (PlayStation) :\n- Ventilateur : ${formatPrice(catalogueEuros("ps4", "ventilateur"))}`,
    );
    expect(answer).toContain(`PS4 Pro (Ventilateur ${formatPrice(catalogueEuros("ps4-pro", "ventilateur"))})`);
    expect(answer).toContain("PS4 Slim");
    expect(offlineAnswer("écran Switch", SEED_BRANDS)).toContain(
      `Pour votre Switch (Nintendo) :\n- Écran : ${formatPrice(149)}`,
    );
  });

  it("asks back when two models fit equally, with their prices", () => {
    const answer = offlineAnswer("Combien pour l'écran d'un iPhone SE ?", SEED_BRANDS);
    expect(answer).toContain("Lequel est le vôtre ?");
    expect(answer).toContain(
      `iPhone SE (2020) (Apple) : Écran ${formatPrice(catalogueEuros("iphone-se-2020", "ecran"))}`,
    );
    expect(answer).toContain(
      `iPhone SE (2022) (Apple) : Écran ${formatPrice(catalogueEuros("iphone-se-2022", "ecran"))}`,
    );
  });

  it.each(["Switch 2 écran", "Combien pour l'écran d'un iPhone 16e ?", "Vous réparez les Oppo Find X7 ?"])(
    "%s: another model than the catalogue's → not found, no price",
    (question) => {
      const answer = offlineAnswer(question, SEED_BRANDS);
      expect(answer).toContain(NOT_FOUND_TEXT);
      expect(answer).toContain("/contact");
      expect(answer).not.toMatch(/\d+\s?€/);
    },
  );

  it("answers a fact question with the fact, never « modèle non trouvé » (issue 17 §2)", () => {
    const answer = offlineAnswer("Quel est le tarif horaire d'un technicien ?", SEED_BRANDS);
    expect(answer).toContain(`${formatEuros(TECHNICIAN_HOURLY_RATE_EUROS)} de l'heure`);
    expect(answer).not.toContain(NOT_FOUND_TEXT);
  });
});
