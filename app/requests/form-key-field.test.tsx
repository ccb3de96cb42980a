// @vitest-environment happy-dom
/**
 * Issue 28: the contact and quote forms' key field is empty in the
 * pre-rendered HTML (one page for every visitor) and filled by the browser
 * once hydrated, with a key of its own for each page.
 */
import { render } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FormKeyField, newFormKey } from "./form-key-field.tsx";
import { FORM_KEY_FIELD, FormKey } from "./schemas.ts";

describe("FormKeyField", () => {
  it("renders an empty field on the server, then a key the server accepts, different for each page", () => {
    expect(renderToString(<FormKeyField />)).toBe(`<input type="hidden" name="${FORM_KEY_FIELD}" value=""/>`);
    const keys = [0, 1].map(() => {
      const { container, unmount } = render(
        <form>
          <FormKeyField />
        </form>,
      );
      const value = new FormData(container.querySelector("form")!).get(FORM_KEY_FIELD);
      unmount();
      return value;
    });
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(FormKey.safeParse(keys[0])).toMatchObject({ success: true, data: keys[0] });
    expect(newFormKey()).toMatch(/^[0-9a-f]{32}$/);
  });
});
