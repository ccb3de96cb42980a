/**
 * Issue 40, « Customers of remote help » §2: the pages an assistant answer
 * points to become links named for where they lead; only same-site paths are
 * links; the old « assistant automatique » sentence is dropped.
 */
import { describe, expect, it } from "vitest";
import { brands } from "#app/catalogue/index.ts";
import { AUTOMATIC_NOTICE, isSitePath, nameBarePaths, replySegments, sitePathName } from "./reply-links";

const links = (text: string, name?: (path: string) => string | null) =>
  replySegments(text, name).filter((segment) => segment.kind === "link");
const shown = (text: string) =>
  replySegments(text)
    .map((segment) => (segment.kind === "text" ? segment.text : segment.name))
    .join("");

describe("replySegments", () => {
  it("makes a Markdown link to a site path a link with its name", () => {
    const text =
      "Pour l'écran de votre Galaxy S21 :\n[Prendre rendez-vous pour l'écran du Galaxy S21](/rendez-vous?modele=galaxy-s21&reparation=ecran)";
    expect(replySegments(text)).toEqual([
      { kind: "text", text: "Pour l'écran de votre Galaxy S21 :\n" },
      {
        kind: "link",
        name: "Prendre rendez-vous pour l'écran du Galaxy S21",
        to: "/rendez-vous?modele=galaxy-s21&reparation=ecran",
      },
    ]);
  });

  it("names a bare site path from the site's pages, never showing the path", () => {
    expect(links("Suivez-la sur /suivi, ou écrivez-nous sur /contact.")).toEqual([
      { kind: "link", name: "Suivre ma réparation", to: "/suivi" },
      { kind: "link", name: "Nous contacter", to: "/contact" },
    ]);
    expect(links("Prendre rendez-vous : /rendez-vous?modele=galaxy-s21&reparation=ecran")).toEqual([
      { kind: "link", name: "Prendre rendez-vous", to: "/rendez-vous?modele=galaxy-s21&reparation=ecran" },
    ]);
    expect(shown("Le détail est sur /services/pc-repair.")).toBe("Le détail est sur Réparation PC.");
  });

  it("never makes a link off the site: other targets show their name as text", () => {
    for (const target of [
      "https://exemple-pirate.fr/contact",
      "//exemple-pirate.fr",
      "/\\exemple-pirate.fr",
      "javascript:alert(1)",
      "mailto:a@b.fr",
      "contact",
    ]) {
      const text = `Voyez [cette page](${target}).`;
      expect(links(text), target).toEqual([]);
      expect(shown(text), target).toBe("Voyez cette page.");
    }
    // A site path at the end of another site's address is that site's.
    expect(links("Allez sur https://exemple-pirate.fr/contact ou exemple-pirate.fr/suivi")).toEqual([]);
  });

  it("keeps markup as text: an answer cannot carry HTML", () => {
    const text = '<a href="https://exemple-pirate.fr">/contact</a><img src=x onerror=alert(1)>';
    expect(replySegments(text)).toEqual([
      { kind: "text", text: '<a href="https://exemple-pirate.fr">' },
      { kind: "link", name: "Nous contacter", to: "/contact" },
      { kind: "text", text: "</a><img src=x onerror=alert(1)>" },
    ]);
  });

  it("drops the old « assistant automatique » sentence of answers stored before", () => {
    expect(shown(`${AUTOMATIC_NOTICE}\nNos horaires : du lundi au vendredi.`)).toBe(
      "Nos horaires : du lundi au vendredi.",
    );
  });
});

describe("isSitePath", () => {
  it("accepts the site's paths only", () => {
    expect(isSitePath("/rendez-vous?modele=ps5&reparation=port-hdmi")).toBe(true);
    expect(isSitePath("/services/playstation-repair#ps5")).toBe(true);
    for (const target of ["//evil.fr", "/\\evil.fr", "/ /evil.fr", "/\t/evil.fr", "https://evil.fr", "/a<b"])
      expect(isSitePath(target), target).toBe(false);
  });
});

describe("sitePathName with the catalogue", () => {
  it("names the booking form with the model and repair of its query, as the price pages do", () => {
    expect(sitePathName("/rendez-vous?modele=galaxy-s21&reparation=ecran", brands)).toBe(
      "Prendre rendez-vous : Écran, Galaxy S21",
    );
    expect(sitePathName("/rendez-vous?modele=iphone-13", brands)).toBe("Prendre rendez-vous : iPhone 13");
    expect(sitePathName("/rendez-vous?modele=inconnu", brands)).toBe("Prendre rendez-vous");
  });

  it("names a catalogue page by its title, and the model of its anchor", () => {
    expect(sitePathName("/services/playstation-repair#ps5", brands)).toBe("Réparation PlayStation : PS5");
    expect(sitePathName("/services/iphone-repair", brands)).toBe("Réparation iPhone");
    expect(sitePathName("/services/tablet-repair", brands)).toBe("Réparation tablette");
  });

  it("knows no name for a path that is none of the site's pages", () => {
    expect(sitePathName("/admin", brands)).toBeNull();
  });
});

describe("nameBarePaths", () => {
  it("writes each bare path as a named link and keeps the links already named", () => {
    const name = (path: string) => sitePathName(path, brands);
    expect(
      nameBarePaths(
        "Le détail est sur /services/playstation-repair#ps5.\nPrendre rendez-vous : /rendez-vous?modele=ps5&reparation=port-hdmi\n[Nous écrire](/contact), /admin",
        name,
      ),
    ).toBe(
      "Le détail est sur [Réparation PlayStation : PS5](/services/playstation-repair#ps5).\nPrendre rendez-vous : [Prendre rendez-vous : Port HDMI, PS5](/rendez-vous?modele=ps5&reparation=port-hdmi)\n[Nous écrire](/contact), /admin",
    );
  });
});
