// @vitest-environment happy-dom
/**
 * Issue 40: « Obtenir de l'aide », what a signed-out visitor of /soft-assist reads first: what remote help
 * is, its three steps with the shop's phone (from the identity the page is rendered with), its price (the
 * technician's hourly rate) and real links to the app for the visitor's system, the others in a disclosure.
 */
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRoutesStub, Outlet } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { defaultShop, formatEuros, TECHNICIAN_HOURLY_RATE_EUROS, type ShopIdentity } from "#app/config/shop.ts";
import type { DevicePlatform, DownloadView } from "#app/remote-support/device-protocol.ts";
import { PublicHelp } from "./public-help";

const build = (platform: DevicePlatform, arch: string, label: string): DownloadView => ({
  platform,
  arch,
  label,
  fileName: `atelier-assistance-1.2.0-${platform}-${arch}`,
  url: `/telechargements/atelier-assistance-1.2.0-${platform}-${arch}`,
  version: "1.2.0",
  bytes: 98_400_000,
  sha256: "a".repeat(64),
});
const BUILDS = [
  build("linux", "x64", "Linux (64 bits)"),
  build("windows", "x64", "Windows (64 bits)"),
  build("macos", "arm64", "macOS (Apple Silicon)"),
  build("macos", "x64", "macOS (Intel)"),
];
/** Another shop than the defaults: the page must say its phone, not a number written in the component. */
const SHOP: ShopIdentity = { ...defaultShop, phone: { display: "01 99 00 56 78", e164: "+33199005678" } };

/** The section as the page renders it, under a root route whose data carries `SHOP` (what `useShop()` reads). */
async function show(downloads: DownloadView[], platform: DevicePlatform | null) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ shop: SHOP }),
      Component: Outlet,
      HydrateFallback: () => null,
      children: [{ path: "soft-assist", Component: () => <PublicHelp downloads={downloads} platform={platform} /> }],
    },
  ]);
  render(<Stub initialEntries={["/soft-assist"]} />);
  return screen.findByRole("region", { name: "Obtenir de l'aide" });
}

afterEach(cleanup);

describe("PublicHelp", () => {
  it("explains remote help, its three steps with the shop's phone, its price, and offers the Windows build", async () => {
    const section = await show(BUILDS, "windows");
    expect(
      within(section).getByText(/se connecte à votre ordinateur à travers notre logiciel, voit votre écran/u),
    ).toBeInTheDocument();
    expect(within(section).getByText(/Vous n'avez pas besoin de compte/u)).toBeInTheDocument();

    const steps = within(section).getAllByRole("listitem").slice(0, 3);
    expect(steps[0]!.closest("ol")).not.toBeNull();
    expect(steps.map((step) => within(step).getByRole("heading", { level: 3 }).textContent)).toEqual([
      "1Téléchargez et lancez le logiciel",
      "2Donnez le code au technicien",
      "3Le technicien vous aide, avec votre accord",
    ]);
    expect(steps[0]).toHaveTextContent("Aucun compte à créer, rien à installer.");
    expect(within(steps[0]!).getByRole("link", { name: "la version pour votre ordinateur" })).toHaveAttribute(
      "href",
      "#telecharger",
    );
    expect(within(steps[1]!).getByRole("link", { name: "01 99 00 56 78" })).toHaveAttribute("href", "tel:+33199005678");
    expect(steps[2]).toHaveTextContent(/que si vous l'autorisez.*arrêter à tout moment/u);

    // The rate's own formatting (no-break spaces), from the constant the assistant states too.
    expect(within(section).getByText(/^Le logiciel est gratuit\./u).textContent).toContain(
      `au tarif de ${formatEuros(TECHNICIAN_HOURLY_RATE_EUROS)} de l'heure`,
    );

    const yours = within(section).getByRole("list", { name: "Pour votre système (Windows)" });
    const windows = within(yours).getByRole("link", { name: "Télécharger pour Windows (64 bits)" });
    expect(windows).toHaveAttribute("href", "/telechargements/atelier-assistance-1.2.0-windows-x64");
    expect(windows).toHaveAttribute("download", "atelier-assistance-1.2.0-windows-x64");
    expect(yours).toHaveTextContent("Exécuter quand même");
    // The other systems in a native disclosure, each a real link too.
    const others = within(section).getByText("Autres systèmes").closest("details")!;
    expect(
      within(others)
        .getAllByRole("link")
        .map((link) => link.getAttribute("href")),
    ).toEqual([
      "/telechargements/atelier-assistance-1.2.0-linux-x64",
      "/telechargements/atelier-assistance-1.2.0-macos-arm64",
      "/telechargements/atelier-assistance-1.2.0-macos-x64",
    ]);
  });

  it("offers both Mac builds to a Mac, Apple Silicon first", async () => {
    const section = await show(BUILDS, "macos");
    const yours = within(section).getByRole("list", { name: "Pour votre système (macOS)" });
    expect(
      within(yours)
        .getAllByRole("link", { name: /^Télécharger pour/u })
        .map((link) => link.textContent),
    ).toEqual(["Télécharger pour macOS (Apple Silicon)", "Télécharger pour macOS (Intel)"]);
  });

  it("lists every system when it cannot tell the visitor's, and says so when their system has no build", async () => {
    const unknown = await show(BUILDS, null);
    expect(within(unknown).getByText(/choisissez le système de l'ordinateur à dépanner/u)).toBeInTheDocument();
    expect(
      within(within(unknown).getByRole("list", { name: "Choisissez votre système" })).getAllByRole("link"),
    ).toHaveLength(4);
    cleanup();

    const mac = await show(BUILDS.slice(0, 2), "macos");
    expect(mac).toHaveTextContent("Le logiciel n'est pas encore proposé pour macOS : appelez-nous au 01 99 00 56 78");
    expect(within(mac).getByRole("list", { name: "Choisissez votre système" })).toBeInTheDocument();
  });

  it("tells the visitor to call the shop when no build is offered", async () => {
    const section = await show([], "windows");
    expect(section).toHaveTextContent(
      "Le logiciel n'est pas disponible sur ce serveur pour le moment : appelez-nous au 01 99 00 56 78",
    );
    expect(within(section).queryByRole("link", { name: /^Télécharger/u })).toBeNull();
  });
});
