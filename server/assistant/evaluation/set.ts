/**
 * The assistant's evaluation set (issue 17 §3), generated from the catalogue
 * and the shop's configuration, never typed by hand where data exists:
 *
 * - price questions: every model × every repair it has, in five phrasings
 *   (`PRICE_PHRASINGS`): formal with the brand, terse, with "mon/ma",
 *   without the brand, and with one typo or missing space in the model name;
 *   and a sixth told as a symptom for the repairs customers describe rather
 *   than name (`./symptom-questions.ts`, issue 18);
 * - fact questions (`FACT_QUESTIONS`): hourly rate, hours, address, phone,
 *   e-mail, warranties, express repair, diagnosis, quotes, mailbox plans,
 *   remote support, each expected to contain the configuration's values;
 * - models the shop does not repair (`NOT_REPAIRED`), in three phrasings,
 *   expected to get "not in the catalogue" with the quote form's link.
 *
 * Deterministic: the same catalogue gives the same set (the typos come from
 * a counter, not a random source).
 */
import { formatMonths, formatYears, repairPromises, salesPromises } from "#app/config/sales-promises.ts";
import { describeMailboxPlan, MAILBOX_PLANS } from "#app/config/mailbox-plans.ts";
import {
  formatAddress,
  formatEuros,
  formatOpeningHours,
  QUOTE_REPLY_HOURS,
  defaultShop as shop,
  TECHNICIAN_HOURLY_RATE_EUROS,
} from "#app/config/shop.ts";
import type { RepairId } from "#app/catalogue/schema.ts";
import { modelEntries, type Brand, type ModelEntry } from "#app/catalogue/shapes.ts";
import type { FactTopic } from "../facts.ts";
import { symptomQuestion } from "./symptom-questions.ts";

export const PRICE_PHRASINGS = ["formel", "bref", "possessif", "sans-marque", "faute-de-frappe", "symptome"] as const;
export type PricePhrasing = (typeof PRICE_PHRASINGS)[number];
/** Phrasings that carry the model's exact name (floor 100 %). */
export const EXACT_PHRASINGS: readonly PricePhrasing[] = ["formel", "bref", "possessif", "sans-marque"];

export type PriceCase = {
  readonly category: PricePhrasing;
  readonly question: string;
  readonly modelSlug: string;
  readonly repairId: RepairId;
  /** The catalogue's price, € (minimum, "à partir de"). */
  readonly euros: number;
};
export type FactCase = {
  readonly category: "fait";
  readonly question: string;
  readonly topic: FactTopic;
  /** Text the answer must contain (from the configuration). */
  readonly expected: readonly string[];
};
export type UnknownModelCase = { readonly category: "hors-catalogue"; readonly question: string };
export type EvaluationCase = PriceCase | FactCase | UnknownModelCase;

/** The article and possessive a customer uses for a device of this family. */
function grammar(entry: ModelEntry): { article: string; possessive: string } {
  return entry.brand.family === "console" || entry.brand.family === "tablet"
    ? { article: "une", possessive: "ma" }
    : { article: "un", possessive: "mon" };
}

const lower = (text: string) => text.toLocaleLowerCase("fr-FR");
const GENERIC = new Set(["pro", "plus", "max", "mini", "lite", "ultra", "se", "fe", "xl", "slim"]);

/** The name with the brand in front unless the name already says it ("Apple iPhone 13", "Xbox One"). */
function fullName({ brand, model }: ModelEntry): string {
  return lower(model.name).includes(lower(brand.name)) ? model.name : `${brand.name} ${model.name}`;
}

/**
 * The name as a customer says it without the maker: a phone's name less a
 * leading brand word when what is left still names it ("Huawei P30" → "P30",
 * "Realme 12 Pro+" stays); other names are already said without the brand.
 */
function nameWithoutBrand({ brand, model }: ModelEntry): string {
  const [first, ...rest] = model.name.split(" ");
  const family = brand.family === "smartphone";
  const isBrand = lower(first ?? "") === lower(brand.name) || ["galaxy", "xperia"].includes(lower(first ?? ""));
  const distinctive = rest.some((word) => /^[a-z]{2,}/i.test(word) && !GENERIC.has(lower(word).replace(/\+$/, "")));
  return family && isBrand && distinctive ? rest.join(" ") : model.name;
}

/** Neighbouring keys on a French (AZERTY) keyboard, for substitution typos. */
const NEIGHBOURS: Record<string, string> = {
  a: "z",
  z: "e",
  e: "r",
  r: "t",
  t: "y",
  y: "u",
  u: "i",
  i: "o",
  o: "p",
  p: "o",
  q: "s",
  s: "d",
  d: "f",
  f: "g",
  g: "h",
  h: "j",
  j: "k",
  k: "l",
  l: "m",
  m: "l",
  w: "x",
  x: "c",
  c: "v",
  v: "b",
  b: "n",
  n: "b",
};

/** `word` with one typo of kind `kind % 4`: two letters swapped, one dropped, one doubled, one replaced by its neighbour. */
function typo(word: string, kind: number): string {
  const at = 1 + (kind % Math.max(1, word.length - 2));
  const i = Math.min(at, word.length - 2);
  switch (kind % 4) {
    case 0:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + word[i] + word.slice(i);
    default: {
      const letter = lower(word[i]!);
      return word.slice(0, i) + (NEIGHBOURS[letter] ?? "e") + word.slice(i + 1);
    }
  }
}

/** The model's name with one typo (in its longest word of 4 letters or more) or, failing that, a missing space. */
export function misspell(name: string, seed: number): string | undefined {
  const words = name.split(" ");
  const eligible = words
    .map((word, index) => ({ word, index }))
    .filter(({ word }) => /^[a-zà-ÿ]{4,}$/i.test(word))
    .sort((a, b) => b.word.length - a.word.length || a.index - b.index);
  const target = eligible[seed % Math.max(1, Math.min(2, eligible.length))];
  if (target && seed % 5 !== 4) {
    words[target.index] = typo(target.word, seed);
    return words.join(" ");
  }
  if (words.length >= 2) {
    const at = seed % (words.length - 1);
    return [...words.slice(0, at), words[at]! + words[at + 1]!, ...words.slice(at + 2)].join(" ");
  }
  return target ? typo(target.word, seed) : undefined;
}

/** The questions about `repair` of `entry`'s model (five, six with a symptom); `seed` varies the typo and the symptom. */
function priceQuestions(entry: ModelEntry, id: RepairId, label: string, seed: number): [PricePhrasing, string][] {
  const { article, possessive } = grammar(entry);
  const name = entry.model.name;
  const repair = lower(label);
  const misspelt = misspell(name, seed);
  const symptom = symptomQuestion(id, `${possessive} ${name}`, seed);
  return [
    ...(symptom ? [["symptome", symptom] as [PricePhrasing, string]] : []),
    ["formel", `Bonjour, quel est le prix de la réparation « ${label} » pour ${article} ${fullName(entry)} ?`],
    ["bref", lower(`${label} ${name}`)],
    ["possessif", `Combien coûte la réparation ${repair} de ${possessive} ${name} ?`],
    ["sans-marque", `Vous faites ${repair} sur ${nameWithoutBrand(entry)} ? C'est combien ?`],
    ...(misspelt ? [["faute-de-frappe", `${repair} ${misspelt} prix ?`] as [PricePhrasing, string]] : []),
  ];
}

/** The topics the fact questions cover: every one the assistant knows (`FACT_TOPICS`). */
export { FACT_TOPICS as FACT_QUESTIONS_TOPICS } from "../facts.ts";

/** Fact questions, several phrasings per topic, with what the answer must say (from the configuration). */
export function factQuestions(): FactCase[] {
  const hours = formatOpeningHours(shop.openingHours);
  const plans = MAILBOX_PLANS.map((plan) => describeMailboxPlan(plan));
  const salesWarranty = [
    formatMonths(salesPromises.salesWarrantyMaxMonths),
    formatYears(salesPromises.pcWarrantyMaxYearsWithExtension),
    formatMonths(salesPromises.smartphoneWarrantyExtendedMonths),
  ];
  const table: [FactTopic, string[], string[]][] = [
    [
      "hourly-rate",
      [formatEuros(TECHNICIAN_HOURLY_RATE_EUROS)],
      [
        "Quel est le tarif horaire d'un technicien ?",
        "Combien coûte une heure de technicien ?",
        "Vous facturez combien de l'heure ?",
        "Quel est le prix d'une intervention d'un technicien ?",
        "taux horaire technicien",
      ],
    ],
    [
      "opening-hours",
      hours,
      [
        "Quels sont vos horaires ?",
        "Vous êtes ouverts le samedi ?",
        "À quelle heure ouvrez-vous ?",
        "Quand est-ce que la boutique est ouverte ?",
        "horaires d'ouverture",
      ],
    ],
    [
      "address",
      [formatAddress(shop.address)],
      ["Quelle est votre adresse ?", "Où se trouve l'atelier ?", "Où êtes-vous situés ?", "adresse de la boutique"],
    ],
    [
      "phone",
      [shop.phone.display],
      ["Quel est votre numéro de téléphone ?", "Comment vous joindre ?", "Je peux vous appeler ?", "numéro"],
    ],
    ["email", [shop.email], ["Quelle est votre adresse e-mail ?", "Je peux vous écrire un mail ?"]],
    [
      "repair-warranty",
      [formatMonths(repairPromises.warrantyMonths)],
      [
        "Quelle est la garantie sur une réparation ?",
        "Vos réparations sont-elles garanties ?",
        "Combien de temps est garantie la réparation de mon écran ?",
      ],
    ],
    [
      "express-repair",
      [`${repairPromises.expressRepairHours} heure`],
      [
        "Combien de temps dure une réparation ?",
        "Proposez-vous une réparation express ?",
        "Vous réparez rapidement ?",
        "Quel est le délai de réparation ?",
      ],
    ],
    [
      "diagnosis",
      ["gratuit"],
      ["Le diagnostic est-il gratuit ?", "Combien coûte le diagnostic ?", "Vous faites payer le diagnostic ?"],
    ],
    [
      "quote",
      [`${QUOTE_REPLY_HOURS} heures`, "/contact"],
      [
        "Sous quel délai recevrai-je mon devis ?",
        "Quand aurai-je une réponse à ma demande de devis ?",
        "Je voudrais un devis",
      ],
    ],
    [
      "sales-warranty",
      salesWarranty,
      [
        "Quelle garantie sur un PC acheté chez vous ?",
        "Les smartphones vendus sont garantis combien de temps ?",
        "Quelle est la garantie à l'achat ?",
      ],
    ],
    [
      "mailbox-plans",
      plans,
      ["Combien coûte une boîte mail ?", "Quels sont vos forfaits de messagerie ?", "Prix des boîtes mail ?"],
    ],
    [
      "remote-support",
      ["Démarrer une session d'assistance"],
      ["Comment démarrer une assistance à distance ?", "Comment faire une prise en main à distance ?"],
    ],
  ];
  return table.flatMap(([topic, expected, questions]) =>
    questions.map((question) => ({ category: "fait" as const, question, topic, expected })),
  );
}

/**
 * Devices the catalogue does not list: older, newer or other makers' models, and neighbours of listed ones.
 * Not computers: the shop repairs them after a diagnosis, and the assistant says so (`offline.ts`).
 */
export const NOT_REPAIRED = [
  "iPhone 7",
  "iPhone 6s",
  "iPhone 16e",
  "iPhone 17 Pro",
  "Galaxy S10",
  "Galaxy S25 Ultra",
  "Galaxy A52",
  "Galaxy Note 9",
  "Pixel 9 Pro",
  "Pixel 2",
  "OnePlus 12",
  "Nokia 3310",
  "Fairphone 5",
  "Motorola Edge 40",
  "Xiaomi 15 Ultra",
  "Redmi Note 14 Pro",
  "Huawei P10",
  "Oppo Find X7",
  "Honor Magic7 Pro",
  "Switch 2",
  "PS Vita",
  "PSP",
  "Game Boy Advance",
  "Steam Deck",
  "Wii mini",
  "Xbox 360 Elite",
  "iPad Pro 13 pouces (M5)",
  "Galaxy Tab S9 FE+",
  "Surface Pro 10",
  "Kindle Paperwhite",
  "Lenovo Tab P11",
  "Nintendo 64",
];

/** The whole set: prices (every model × repair × phrasing), facts, and devices not repaired. */
export function generateEvaluationSet(brands: readonly Brand[]): EvaluationCase[] {
  const cases: EvaluationCase[] = [];
  let seed = 0;
  for (const entry of modelEntries(brands)) {
    for (const repair of entry.model.repairs) {
      for (const [category, question] of priceQuestions(entry, repair.id, repair.label, seed++)) {
        cases.push({ category, question, modelSlug: entry.model.slug, repairId: repair.id, euros: repair.euros });
      }
    }
  }
  cases.push(...factQuestions());
  for (const device of NOT_REPAIRED) {
    for (const question of [
      `Combien pour l'écran de mon ${device} ?`,
      `Vous réparez les ${device} ?`,
      `${device} batterie prix`,
    ]) {
      cases.push({ category: "hors-catalogue", question });
    }
  }
  return cases;
}
