// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { render } from "@testing-library/react";
import { CustomerName } from "./customer-name";

describe("CustomerName (issues 26, 37 §6)", () => {
  it("isolates a right-to-left name so the words after it keep their order", () => {
    const { container } = render(
      <p>
        <CustomerName session={{ userName: "مريم", origin: "app" }} />
      </p>,
    );
    const name = container.querySelector("bdi");
    expect(name).toHaveTextContent(/^مريم$/);
    expect(container.firstElementChild).toHaveTextContent(/^مريم — depuis le logiciel$/);
  });

  it("names a site session's customer alone", () => {
    const { container } = render(
      <p>
        <CustomerName session={{ userName: "Alice", origin: "site" }} />
      </p>,
    );
    expect(container.firstElementChild).toHaveTextContent(/^Alice$/);
    expect(container.querySelector("bdi")).toHaveTextContent(/^Alice$/);
  });
});
