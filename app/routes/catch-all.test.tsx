// @vitest-environment happy-dom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, Link, useLocation, useNavigationType } from "react-router";
import { describe, expect, it } from "vitest";
import CatchAll, { loader } from "./catch-all";

function Where() {
  const location = useLocation();
  const navigationType = useNavigationType();
  return (
    <p>
      {location.pathname} via {navigationType}
    </p>
  );
}

describe("unknown paths inside the app", () => {
  it("redirect to / and replace the history entry", async () => {
    const Stub = createRoutesStub([
      { path: "/", Component: Where },
      {
        path: "/contact",
        Component: () => (
          <>
            <Where />
            <Link to="/page-inconnue">lien cassé</Link>
          </>
        ),
      },
      { path: "*", Component: CatchAll, loader },
    ]);
    render(<Stub initialEntries={["/contact"]} />);
    await userEvent.click(await screen.findByRole("link", { name: "lien cassé" }));
    expect(await screen.findByText("/ via REPLACE")).toBeInTheDocument();
  });
});
