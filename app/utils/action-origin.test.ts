/**
 * Issue 30 §1: the pages' forms keep React Router's Origin rule (same origin, or no Origin at all) but
 * a refusal is the site's French 403, never the framework's English "Bad Request".
 */
import { RouterContextProvider, type UNSAFE_DataWithResponseInit } from "react-router";
import { describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE, isForeignActionOrigin, refuseForeignActions } from "./action-origin.ts";

const PAGE = "https://atelier.example/rendez-vous/gerer?jeton=abc";

/** Runs the middleware on a request; resolves with what it threw, or `undefined` when it let it through. */
async function refusalOf(method: string, origin?: string): Promise<unknown> {
  const request = new Request(PAGE, { method, headers: origin === undefined ? {} : { Origin: origin } });
  const args = { request, params: {}, context: new RouterContextProvider(), unstable_pattern: "" };
  try {
    await refuseForeignActions(
      args as unknown as Parameters<typeof refuseForeignActions>[0],
      async () => new Response(),
    );
    return undefined;
  } catch (thrown) {
    return thrown;
  }
}

describe("isForeignActionOrigin", () => {
  it("lets the page's own origin and a request without Origin through", () => {
    expect(isForeignActionOrigin("https://atelier.example", PAGE)).toBe(false);
    expect(isForeignActionOrigin(null, PAGE)).toBe(false);
  });

  it("refuses another site, another scheme or port, the opaque null and anything unreadable", () => {
    for (const origin of [
      "https://evil.example",
      "http://atelier.example",
      "https://atelier.example:8443",
      "https://sub.atelier.example",
      "null",
      "",
      "pas une adresse",
    ]) {
      expect(isForeignActionOrigin(origin, PAGE), origin).toBe(true);
    }
  });
});

describe("refuseForeignActions", () => {
  it("throws the French 403 for a post from another origin or with Origin: null", async () => {
    for (const origin of ["https://evil.example", "null"]) {
      // `data(…)` thrown: React Router renders it as an error response of that status and data.
      const thrown = (await refusalOf("POST", origin)) as UNSAFE_DataWithResponseInit<unknown> | undefined;
      expect(thrown?.type, origin).toBe("DataWithResponseInit");
      expect(thrown?.init?.status).toBe(403);
      expect(thrown?.data).toBe(CROSS_SITE_MESSAGE);
    }
  });

  it("leaves same-origin posts, posts without Origin and every GET alone", async () => {
    expect(await refusalOf("POST", "https://atelier.example")).toBeUndefined();
    expect(await refusalOf("POST")).toBeUndefined();
    expect(await refusalOf("GET", "https://evil.example")).toBeUndefined();
  });
});
