/**
 * Issue 7 end to end: the "Assistant virtuel" panel of the customer screen in
 * Chromium, against two servers of this file: one without any AI provider
 * (the offline assistant) and one whose provider is a fake OpenAI-compatible
 * server on 127.0.0.1 that streams slowly, so the typing state and the reply
 * growing piece by piece can be seen. Issue 40: answers name their links
 * (never a raw path, never a link off the site), start with the answer, and
 * a slow computer gets first steps before the offer of a technician.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startFakeOpenAI, type FakeOpenAI } from "#tests/support/fake-openai.ts";
import {
  newPage,
  signUpCustomer,
  startAreaServer,
  violations,
  type AreaServer,
} from "#tests/support/soft-assist-pages.ts";

const KEY = `sk-cle-e2e-${Math.random().toString(36).slice(2)}`;
let offline: AreaServer;
let online: AreaServer;
let fake: FakeOpenAI;

test.describe.configure({ mode: "default", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fake = await startFakeOpenAI();
  [offline, online] = await Promise.all([
    startAreaServer("assistant", []),
    startAreaServer("assistant", [], { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseURL, AI_MODEL: "modele-e2e" }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([offline?.stop(), online?.stop(), fake?.close()]);
});

const panel = (page: Page) => page.locator("[data-slot=assistant-virtuel]");
const conversation = (page: Page) => panel(page).getByRole("log");

test.describe("assistant", { tag: "@desktop" }, () => {
  test("offline: greets, answers a price from the catalogue with its page, keeps the conversation, starts a new one", async ({
    browser,
  }) => {
    const page = await newPage(browser, offline.server.url);
    await signUpCustomer(page, "Marc Vidal");
    await expect(panel(page).getByRole("heading", { name: "Assistant virtuel" })).toBeVisible();
    await expect(conversation(page)).toContainText(
      "Bonjour je suis l'assistant IA de Atelier Informatique, comment puis-je vous aider ?",
    );
    const input = panel(page).getByPlaceholder("Tapez votre message...");
    const send = panel(page).getByRole("button", { name: "Envoyer" });
    await expect(send).toBeDisabled();
    await input.fill("   ");
    await expect(send).toBeDisabled();
    await input.press("Enter");
    await expect(conversation(page).locator("p")).toHaveCount(1); // only the greeting: nothing was sent

    await input.fill("Combien coûte le port HDMI d'une PS5 ?");
    await input.press("Enter");
    await expect(conversation(page)).toContainText("Combien coûte le port HDMI d'une PS5 ?");
    await expect(conversation(page)).toContainText(/Port HDMI : à partir de 89\s€/);
    // Issue 40: the chat says who speaks; the pages are named links, no raw path.
    await expect(conversation(page)).not.toContainText("assistant automatique");
    const link = conversation(page).getByRole("link", { name: "Réparation PlayStation : PS5" });
    await expect(link).toHaveAttribute("href", "/services/playstation-repair#ps5");
    await expect(
      conversation(page).getByRole("link", { name: "Prendre rendez-vous : Port HDMI, PS5" }),
    ).toHaveAttribute("href", "/rendez-vous?modele=ps5&reparation=port-hdmi");
    await expect(conversation(page)).not.toContainText("/services/");
    await expect(conversation(page)).not.toContainText("/rendez-vous");
    await expect(input).toBeFocused();
    expect(await violations(page)).toEqual([]);

    await input.fill("écran Switch OLED");
    await send.click();
    await expect(conversation(page)).toContainText(/Écran : à partir de 169\s€/);

    await page.reload();
    await expect(conversation(page)).toContainText(/Port HDMI : à partir de 89\s€/);
    await expect(conversation(page)).toContainText(/Écran : à partir de 169\s€/);

    await panel(page).getByRole("button", { name: "Nouvelle conversation" }).click();
    await expect(conversation(page).locator("p")).toHaveCount(1);
    await page.reload();
    await expect(conversation(page)).toBeVisible();
    await expect(conversation(page)).not.toContainText("PS5");
    await page.context().close();
  });

  test("offline: « Mon ordinateur est très lent » gets first steps to try, then a technician", async ({ browser }) => {
    const page = await newPage(browser, offline.server.url);
    await signUpCustomer(page, "Lucie Barre");
    const input = panel(page).getByPlaceholder("Tapez votre message...");
    await input.pressSequentially("Mon ordinateur est très lent, que faire ?", { delay: 30 });
    await input.press("Enter");
    const answer = conversation(page).locator("p", { hasText: "1. Redémarrez l'ordinateur" });
    await expect(answer).toBeVisible();
    await expect(answer).toContainText("Fermez les programmes et les onglets");
    await expect(answer).toContainText("Lancez une analyse complète avec votre antivirus");
    await expect(answer).toContainText(
      "un technicien peut s'en occuper : à distance, cliquez sur « Parler à un technicien »",
    );
    await expect(answer.getByRole("link", { name: "Prendre rendez-vous pour un diagnostic gratuit" })).toHaveAttribute(
      "href",
      "/rendez-vous",
    );
    await expect(answer).not.toContainText("Nous réparons les ordinateurs");
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  test("with a provider: the prompt asks for first steps and named links; only the site's links are links", async ({
    browser,
  }) => {
    const page = await newPage(browser, online.server.url);
    await signUpCustomer(page, "Hugo Marin");
    fake.script({
      text: "1. Redémarrez votre Galaxy S21.\n2. Libérez de l'espace de stockage.\nSi l'écran reste figé : [Prendre rendez-vous pour l'écran du Galaxy S21](/rendez-vous?modele=galaxy-s21&reparation=ecran), suivez-la sur /suivi, ou voyez [ce site](https://exemple-pirate.fr).",
    });
    const input = panel(page).getByPlaceholder("Tapez votre message...");
    await input.pressSequentially("Mon Galaxy S21 rame, que faire ?", { delay: 30 });
    await input.press("Enter");
    const answer = conversation(page).locator("p", { hasText: "1. Redémarrez votre Galaxy S21." });
    await expect(answer.getByRole("link", { name: "Prendre rendez-vous pour l'écran du Galaxy S21" })).toHaveAttribute(
      "href",
      "/rendez-vous?modele=galaxy-s21&reparation=ecran",
    );
    await expect(answer.getByRole("link", { name: "Suivre ma réparation" })).toHaveAttribute("href", "/suivi");
    await expect(answer).toContainText("ou voyez ce site.");
    await expect(answer.getByRole("link")).toHaveCount(2);
    await expect(answer).not.toContainText("/rendez-vous");
    const system = (fake.requests.at(-1)!.messages as { role: string; content: string }[])[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain("donne d'abord, en étapes numérotées, ce qu'il peut essayer lui-même");
    expect(system.content).toContain("Écris chaque lien vers une page du site en Markdown");
    await page.context().close();
  });

  test("with a provider: the reply appears piece by piece under « L'assistant écrit… »", async ({ browser }) => {
    const page = await newPage(browser, online.server.url);
    await signUpCustomer(page, "Nina Caron");
    const words =
      "Débranchez la box dix secondes, rebranchez-la, puis attendez que le voyant Internet soit vert.".split(/(?<= )/);
    fake.script({ text: words.join(""), pieces: words, delayMs: 150 });
    const input = panel(page).getByPlaceholder("Tapez votre message...");
    await input.fill("Ma connexion Internet est coupée.");
    await input.press("Enter");
    await expect(panel(page).getByRole("status").filter({ hasText: "L'assistant écrit…" })).toBeVisible();
    // Part of the reply is shown while the rest is still coming.
    await expect(conversation(page)).toContainText("Débranchez la box");
    await expect(conversation(page)).not.toContainText("voyant Internet soit vert.");
    await expect(conversation(page)).toContainText("voyant Internet soit vert.");
    await expect(panel(page).getByRole("status").filter({ hasText: "L'assistant écrit…" })).toHaveCount(0);
    expect(fake.requests.at(-1)).toMatchObject({ model: "modele-e2e", temperature: 0.7, max_tokens: 500 });

    // The provider fails for good: the spec's message, with the shop's phone.
    fake.script({ status: 400 });
    await input.fill("Et maintenant ?");
    await input.press("Enter");
    await expect(conversation(page)).toContainText(
      "Je suis désolé, mais je rencontre des difficultés techniques. Pour une assistance immédiate, vous pouvez nous contacter au 01 99 00 12 34",
    );
    await page.context().close();
  });

  test("the provider's key reaches no answer and no browser script", async ({ browser }) => {
    const page = await newPage(browser, online.server.url);
    const seen: string[] = [];
    page.on("response", async (response) => {
      seen.push((await response.text().catch(() => "")) + JSON.stringify(response.headers()));
    });
    await signUpCustomer(page, "Paul Simon");
    fake.script({ text: "D'accord." });
    await panel(page).getByPlaceholder("Tapez votre message...").fill("Bonjour");
    await panel(page).getByPlaceholder("Tapez votre message...").press("Enter");
    await expect(conversation(page)).toContainText("D'accord.");
    await page.reload();
    await expect(conversation(page)).toContainText("D'accord.");
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.filter((text) => text.includes(KEY) || text.includes(fake.baseURL))).toEqual([]);
    const assets = path.resolve(import.meta.dirname, "../../build/client/assets");
    for (const file of (await readdir(assets)).filter((name) => name.endsWith(".js"))) {
      expect(await readFile(path.join(assets, file), "utf8"), file).not.toMatch(
        /OPENAI_API_KEY|OPENAI_BASE_URL|AI_MODEL/,
      );
    }
    await page.context().close();
  });
});
