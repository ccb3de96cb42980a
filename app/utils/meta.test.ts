import { describe, expect, it } from "vitest";
import { getMeta } from "./meta";

const matches = [{ id: "root", loaderData: { env: { PUBLIC_URL: "https://www.atelier.fr" }, year: 2026 } }];

describe("getMeta", () => {
  it("builds the title, description and canonical URL from PUBLIC_URL", () => {
    const meta = getMeta(matches, { title: "Contact", description: "Nous joindre.", path: "/contact" });
    expect(meta).toContainEqual({ title: "Contact | Atelier Informatique" });
    expect(meta).toContainEqual({ name: "description", content: "Nous joindre." });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://www.atelier.fr/contact" });
  });

  it("marks pages that must not be indexed", () => {
    const meta = getMeta(matches, { title: "Espace", description: "x", path: "/soft-assist", noindex: true });
    expect(meta).toContainEqual({ name: "robots", content: "noindex" });
  });

  it("fails loudly when the root loader data is missing", () => {
    expect(() => getMeta([], { title: "x", description: "y", path: "/" })).toThrow(/PUBLIC_URL/);
  });
});
