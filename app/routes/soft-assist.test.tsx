// @vitest-environment happy-dom
/**
 * Issue 40: signed out, /soft-assist opens with « Obtenir de l'aide » (the app's builds from the server's
 * list, the visitor's system from the request's headers), the sign-in form below it; signed in, the loader
 * reads no builds.
 */
import { cleanup, render, screen, within } from "@testing-library/react";
import { createRoutesStub, Outlet, RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { DownloadView } from "#app/remote-support/device-protocol.ts";
import { downloadsContext } from "#app/remote-support/downloads-context.ts";
import { accountServicesContext, type AccountServices, type AreaView } from "#app/utils/server-context.ts";
import type { Route } from "./+types/soft-assist";
import SoftAssist, { loader } from "./soft-assist";

const WINDOWS_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0";
const MAC_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15";

const build = (platform: DownloadView["platform"], arch: string, label: string): DownloadView => ({
  platform,
  arch,
  label,
  fileName: `app-${platform}-${arch}`,
  url: `/telechargements/app-${platform}-${arch}`,
  version: "1.0.0",
  bytes: 1_000_000,
  sha256: "b".repeat(64),
});
const BUILDS = [
  build("linux", "x64", "Linux (64 bits)"),
  build("windows", "x64", "Windows (64 bits)"),
  build("macos", "arm64", "macOS (Apple Silicon)"),
];

afterEach(cleanup);

/** The loader's answer for a visitor with `headers`, whose account view is `view`; `lists` counts the reads. */
async function load(view: AreaView, headers: Record<string, string>) {
  const context = new RouterContextProvider();
  context.set(accountServicesContext, {
    areaView: async () => ({ view, setCookie: [] }),
  } as unknown as AccountServices);
  const reads = { count: 0 };
  context.set(downloadsContext, {
    list: async () => {
      reads.count += 1;
      return BUILDS;
    },
  });
  const request = new Request("http://atelier.test/soft-assist", { headers });
  const answer = (await loader({ request, context, params: {} } as unknown as Route.LoaderArgs)) as unknown as {
    data: Route.ComponentProps["loaderData"];
  };
  return { loaderData: answer.data, reads };
}

describe("/soft-assist signed out (issue 40)", () => {
  // The client hint (`Sec-CH-UA-Platform`, which happy-dom's Request drops): client/downloads.test.ts.
  it("gives the server's builds and the system the User-Agent says", async () => {
    expect((await load({ user: null }, { "User-Agent": WINDOWS_UA })).loaderData.help).toEqual({
      downloads: BUILDS,
      platform: "windows",
    });
    expect((await load({ user: null }, { "User-Agent": MAC_UA })).loaderData.help?.platform).toBe("macos");
  });

  it("reads no builds for a signed-in account", async () => {
    const view = {
      user: { id: "u1", name: "Alice", email: "alice@exemple.fr", isTechnician: false },
      screen: "customer",
      sessions: [],
    } as unknown as AreaView;
    const { loaderData, reads } = await load(view, { "User-Agent": WINDOWS_UA });
    expect(loaderData.help).toBeNull();
    expect(reads.count).toBe(0);
  });

  it("shows « Obtenir de l'aide » with the Windows build first, then the sign-in form", async () => {
    const { loaderData } = await load({ user: null }, { "User-Agent": WINDOWS_UA });
    const Stub = createRoutesStub([
      {
        id: "root",
        path: "/",
        Component: Outlet,
        children: [
          {
            path: "soft-assist",
            Component: () => <SoftAssist {...({ loaderData, actionData: undefined } as Route.ComponentProps)} />,
          },
        ],
      },
    ]);
    render(<Stub initialEntries={["/soft-assist"]} />);
    const help = await screen.findByRole("region", { name: "Obtenir de l'aide" });
    const yours = within(help).getByRole("list", { name: "Pour votre système (Windows)" });
    expect(within(yours).getByRole("link", { name: "Télécharger pour Windows (64 bits)" })).toHaveAttribute(
      "href",
      "/telechargements/app-windows-x64",
    );
    const signIn = screen.getByRole("heading", { level: 2, name: "Connexion" });
    // The help comes first in the page; the sign-in form is below it, reached from the intro's link.
    expect(help.compareDocumentPosition(signIn) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole("link", { name: "Aller à la connexion" })).toHaveAttribute("href", "#connexion");
    expect(signIn.closest("#connexion")).not.toBeNull();
    expect(screen.getByRole("button", { name: "Se connecter" })).toBeInTheDocument();
  });
});
