/**
 * Issue 40 « Mise en ligne »: each rule of the checklist on plain values — the site's example legal and
 * contact values flagged by their « Boutique » labels, mail, backups copied off the machine (within 7 days,
 * the last backup fine), the AI provider — and each item done once its setting is.
 */
import { describe, expect, it } from "vitest";
import type { BackupStatusView } from "#app/backups/protocol.ts";
import { defaultShop } from "#app/config/shop.ts";
import { ShopIdentitySchema } from "#app/config/shop-schema.ts";
import { toIdentityInput } from "#app/config/shop-schema.ts";
import { goLiveChecklist } from "./checklist.ts";

const NOW = new Date("2026-12-01T10:00:00.000Z");
const DAY = 24 * 3_600_000;

const filledIn = ShopIdentitySchema.parse({
  ...toIdentityInput(defaultShop),
  phone: "04 72 11 22 33",
  email: "contact@atelier-lyon.fr",
  address: { street: "12 rue Mercière", postalCode: "69002", city: "Lyon", country: "FR" },
  legal: {
    ...toIdentityInput(defaultShop).legal,
    entity: "Atelier Lyon SAS",
    registration: "RCS Lyon 812 345 678",
    vatNumber: "FR12 812345678",
    publicationDirector: "Sam Martin",
    host: { name: "OVH SAS", address: "2 rue Kellermann, 59100 Roubaix", phone: "09 72 10 10 07" },
  },
});

const backup = (change: Partial<BackupStatusView> = {}): BackupStatusView => ({
  lastSuccessAt: new Date(NOW.getTime() - 7 * 3_600_000).toISOString(),
  lastFile: "/srv/atelier/data/backups/sauvegarde-2026-12-01-030000.gz",
  lastSizeBytes: 2_516_582,
  lastError: null,
  lastErrorAt: null,
  lastCopyAt: null,
  lastCopyKind: null,
  state: "ok",
  nightly: true,
  hour: 3,
  dir: "/srv/atelier/data/backups",
  ...change,
});

const item = (list: ReturnType<typeof goLiveChecklist>, id: string) => list.items.find((entry) => entry.id === id)!;

describe("the « Mise en ligne » checklist", () => {
  it("lists every point of a fresh install as to do, with where to set it", () => {
    const list = goLiveChecklist({
      shop: defaultShop,
      mailConfigured: false,
      backup: backup(),
      aiConfigured: false,
      now: NOW,
    });
    expect(list.items.map((entry) => [entry.id, entry.done])).toEqual([
      ["legal", false],
      ["contact", false],
      ["mail", false],
      ["backups", false],
      ["assistant", false],
    ]);
    expect(list.remaining).toBe(5);
    expect(item(list, "legal").missing).toEqual([
      "Raison sociale",
      "Immatriculation (RCS)",
      "Numéro de TVA intracommunautaire",
      "Directeur de la publication",
      "Nom de l'hébergeur",
      "Adresse de l'hébergeur",
      "Téléphone de l'hébergeur",
    ]);
    expect(item(list, "legal").detail).toContain("« Raison sociale »");
    expect(item(list, "legal").setting).toEqual({ view: "shop", variables: [] });
    expect(item(list, "contact").missing).toEqual(["Téléphone", "Adresse e-mail", "Rue"]);
    expect(item(list, "mail").detail).toMatch(/^Non configuré : .*personne ne les reçoit/);
    expect(item(list, "mail").setting.variables).toContain("SMTP_URL");
    expect(item(list, "backups").detail).toMatch(/^Les sauvegardes ne sont que sur cette machine/);
    expect(item(list, "backups").setting).toEqual({ view: "backups", variables: ["BACKUP_DIR"] });
    expect(item(list, "assistant").setting).toEqual({
      view: null,
      variables: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "AI_MODEL"],
    });
  });

  it("marks each point done once its setting is, and then none remains", () => {
    const list = goLiveChecklist({
      shop: filledIn,
      mailConfigured: true,
      backup: backup({ lastCopyAt: new Date(NOW.getTime() - 2 * DAY).toISOString(), lastCopyKind: "download" }),
      aiConfigured: true,
      now: NOW,
    });
    expect(list.items.every((entry) => entry.done)).toBe(true);
    expect(list.remaining).toBe(0);
    expect(item(list, "legal").missing).toEqual([]);
  });

  it("flags a single legal field still « à renseigner », and a contact value at a reserved domain", () => {
    const shop = {
      ...filledIn,
      email: "boutique@atelier.example",
      legal: { ...filledIn.legal, vatNumber: "TVA à renseigner" },
    };
    const list = goLiveChecklist({ shop, mailConfigured: true, backup: backup(), aiConfigured: true, now: NOW });
    expect(item(list, "legal").missing).toEqual(["Numéro de TVA intracommunautaire"]);
    expect(item(list, "contact").missing).toEqual(["Adresse e-mail"]);
  });

  it("counts a copy off the machine for 7 days only, and never while the last backup failed", () => {
    const copied = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
    const at = (change: Partial<BackupStatusView>) =>
      item(
        goLiveChecklist({ shop: filledIn, mailConfigured: true, backup: backup(change), aiConfigured: true, now: NOW }),
        "backups",
      );
    expect(at({ lastCopyAt: copied(6.9), lastCopyKind: "declared" }).done).toBe(true);
    const old = at({ lastCopyAt: copied(8), lastCopyKind: "download" });
    expect(old.done).toBe(false);
    expect(old.detail).toMatch(/plus de 7 jours/);
    const failed = at({
      lastCopyAt: copied(1),
      lastCopyKind: "download",
      state: "failed",
      lastError: "disque plein",
      lastErrorAt: copied(0.1),
    });
    expect(failed.done).toBe(false);
    expect(failed.detail).toMatch(/^La dernière sauvegarde a échoué .* : disque plein$/);
  });
});
