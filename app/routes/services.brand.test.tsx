// @vitest-environment happy-dom
/**
 * Issue 30 §3: a brand page showing « X € après bonus réparation » explains
 * the bonus once, above its price cards (not in each of them), with the
 * official link; without the bonus it says nothing of it.
 */
import { render, screen } from "@testing-library/react";
import { createRoutesStub, Outlet, RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { bookingServicesContext, type BookingServices } from "#app/booking/context.ts";
import type { Route } from "./+types/services.brand";
import BrandPage, { loader } from "./services.brand";

/** The iPhone page as the server renders it, the bonus shown or not. */
async function showIphonePage(bonusShown: boolean) {
  const context = new RouterContextProvider();
  context.set(bookingServicesContext, { bonusShown: async () => bonusShown } as unknown as BookingServices);
  const loaderData = await loader({ params: { page: "iphone-repair" }, context } as unknown as Route.LoaderArgs);
  // The JSON-LD reads PUBLIC_URL from the root route's data.
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ env: { PUBLIC_URL: "https://www.atelier.example" }, year: 2026 }),
      Component: Outlet,
      HydrateFallback: () => null,
      children: [
        {
          path: "services/iphone-repair",
          Component: () => <BrandPage {...({ loaderData } as unknown as Route.ComponentProps)} />,
        },
      ],
    },
  ]);
  render(<Stub initialEntries={["/services/iphone-repair"]} />);
  await screen.findByRole("heading", { level: 1 });
}

describe("brand page and the bonus réparation", () => {
  it("explains the bonus once when its lines show", async () => {
    await showIphonePage(true);
    expect(screen.getAllByText(/^\d+\s€ après bonus réparation$/u).length).toBeGreaterThan(1);
    expect(screen.getAllByText(/^Qu'est-ce que le bonus réparation/u)).toHaveLength(1);
    expect(screen.getByText(/^Les prix « après bonus réparation » tiennent compte/u)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /site officiel/u })).toHaveAttribute(
      "href",
      "https://www.ecologie.gouv.fr/politiques-publiques/bonus-reparation",
    );
  });

  it("says nothing of it when the shop does not show the bonus", async () => {
    await showIphonePage(false);
    expect(screen.queryByText(/bonus réparation/u)).toBeNull();
  });
});
