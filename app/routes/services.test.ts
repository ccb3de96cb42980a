/**
 * Catalogue routes (repair catalogue §2, §8; issue 3): the brand loader
 * answers only the catalogue's brand pages and sends anything else to /, and
 * every catalogue page has its own title and a 70–160 character description,
 * the category pages naming their brands as the data list them (issue 14).
 */
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { bookingServicesContext, type BookingServices } from "#app/booking/context.ts";
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import { brands } from "#app/catalogue/index.ts";
import type { Route } from "./+types/services.brand";
import * as brandRoute from "./services.brand";
import * as consoleRoute from "./services.console-repair";
import * as pcRoute from "./services.pc-repair";
import * as smartphoneRoute from "./services.smartphone-repair";
import * as tabletRoute from "./services.tablet-repair";

const matches = [{ id: "root", loaderData: { env: { PUBLIC_URL: "https://www.atelier.example" }, year: 2026 } }];

/** The brand loader without a server context (as when pre-rendering), or with booking services saying whether the bonus shows. */
function loadBrand(page: string, bonusShown?: boolean) {
  const context = new RouterContextProvider();
  if (bonusShown !== undefined) {
    context.set(bookingServicesContext, { bonusShown: async () => bonusShown } as unknown as BookingServices);
  }
  return brandRoute.loader({ params: { page }, context } as unknown as Route.LoaderArgs);
}

/** A category loader's arguments without a server context: it reads the JSON seed (issue 29). */
const noServer = { context: new RouterContextProvider() } as never;

/** Calls a route's `meta` with what these pages read (root matches and their loader data). */
function metaOf(meta: (args: never) => unknown, loaderData?: unknown) {
  const descriptors = meta({ matches, loaderData } as never) as Record<string, string>[];
  return {
    title: descriptors.find((d) => "title" in d)?.title,
    description: descriptors.find((d) => d.name === "description")?.content,
  };
}

describe("brand page loader", () => {
  it("returns the brand of /services/:page", async () => {
    const data = await loadBrand("iphone-repair");
    expect(data.brand.slug).toBe("iphone");
    expect(data.brand.series[0]?.models[0]?.repairs[0]?.text).toMatch(/^à partir de \d+\s€$/);
  });

  // Issue 18 §3: only when the shop turned the setting on, and only on eligible repairs.
  it("adds the price after the bonus réparation only when the shop shows it", async () => {
    const repairsOf = async (bonusShown?: boolean) =>
      (await loadBrand("iphone-repair", bonusShown)).brand.series.flatMap((series) =>
        series.models.flatMap((model) => model.repairs),
      );
    for (const off of [undefined, false]) {
      expect((await repairsOf(off)).filter((repair) => repair.afterBonus)).toEqual([]);
    }
    const on = await repairsOf(true);
    const screen = on.find((repair) => repair.id === "ecran")!;
    expect(screen.afterBonus).toBe(afterBonusText(screen.euros, bonusFor("iphone", "ecran")!.euros));
    expect(screen.afterBonus).toMatch(/^\d+\s€ après bonus réparation$/);
    expect(on.find((repair) => repair.id === "vitre-arriere")?.afterBonus).toBeUndefined();
  });

  it.each(["inconnu-repair", "pc-repair", "iphone", "services"])(
    "sends /services/%s to / with a replace redirect",
    async (page) => {
      let thrown: unknown;
      try {
        await loadBrand(page);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Response);
      const response = thrown as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      expect(response.headers.get("X-Remix-Replace")).toBe("true");
    },
  );
});

describe("catalogue page meta", async () => {
  const pages = [
    metaOf(pcRoute.meta),
    metaOf(smartphoneRoute.meta, smartphoneRoute.loader(noServer)),
    metaOf(tabletRoute.meta, tabletRoute.loader(noServer)),
    metaOf(consoleRoute.meta, consoleRoute.loader(noServer)),
    ...(await Promise.all(
      brands.map(async (brand) => metaOf(brandRoute.meta, await loadBrand(brand.path.replace("/services/", "")))),
    )),
  ];

  it("gives each page (the four category pages and every brand page) a description of 70–160 characters", () => {
    expect(pages).toHaveLength(4 + brands.length);
    for (const { title, description } of pages) {
      expect(description?.length, `${title}: ${description}`).toBeGreaterThanOrEqual(70);
      expect(description?.length, `${title}: ${description}`).toBeLessThanOrEqual(160);
    }
  });

  it("gives each page its own title", () => {
    expect(new Set(pages.map((page) => page.title)).size).toBe(pages.length);
  });

  it("quotes 'à partir de' and the models on brand pages", () => {
    for (const page of pages.slice(4)) expect(page.description).toMatch(/\d+ modèles .*à partir de \d+\s€ TTC/);
  });
});

describe("category page meta (wording of spec-era pages, brand names from the data)", () => {
  it("names the brands of each category page as its loader lists them", () => {
    const smartphones = smartphoneRoute.loader(noServer);
    expect(metaOf(smartphoneRoute.meta, smartphones).description).toBe(
      `Réparation de smartphones ${smartphones.brandNames} : écran, batterie, caméra. Diagnostic gratuit, Express 1H.`,
    );
    const tablets = tabletRoute.loader(noServer);
    expect(metaOf(tabletRoute.meta, tablets).description).toBe(
      `Réparation de tablettes ${tablets.brandNames} : écran, batterie, connecteur, caméra. Diagnostic gratuit.`,
    );
    const consoles = consoleRoute.loader(noServer);
    expect(metaOf(consoleRoute.meta, consoles).title).toMatch(
      new RegExp(`^Réparation console ${consoles.brandNames} \\| `, "u"),
    );
    expect(metaOf(consoleRoute.meta, consoles).description).toBe(
      `Réparation de consoles ${consoles.brandNames} : lecteur, port HDMI, alimentation, ventilateur, écran. Diagnostic gratuit et garantie 12 mois.`,
    );
  });
});
