// @vitest-environment happy-dom
/**
 * Issue 40, « Placeholder text reaches the public site »: the privacy notices name the shop by its name
 * while the legal entity is still « (raison sociale à renseigner) », and by the legal entity once typed; the
 * example values are told apart from real ones.
 */
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { GdprNotice } from "#app/components/forms/gdpr-notice.tsx";
import MentionsLegales from "#app/routes/mentions-legales.tsx";
import { dataControllerName, exampleContactFields, exampleLegalFields, isExampleValue } from "./placeholders.ts";
import { defaultShop, type ShopIdentity } from "./shop.ts";

const named = (entity: string): ShopIdentity => ({ ...defaultShop, legal: { ...defaultShop.legal, entity } });

/** `Page` under a root loader giving `shop`, as the site's root does (`useShop()`). */
function renderWith(shop: ShopIdentity, Page: () => React.ReactNode) {
  const router = createMemoryRouter([{ id: "root", path: "/", loader: () => ({ shop }), Component: Page }]);
  return render(<RouterProvider router={router} />);
}

describe("the data controller named to visitors", () => {
  it("is the shop's name while the legal entity is the example, then the legal entity", () => {
    expect(dataControllerName(defaultShop)).toBe("Atelier Informatique");
    expect(dataControllerName(named("Atelier Lyon SAS"))).toBe("Atelier Lyon SAS");
    expect(dataControllerName(named("SARL Dupont (raison sociale à renseigner)"))).toBe("Atelier Informatique");
  });

  it("never shows « à renseigner » in a form's notice", async () => {
    renderWith(defaultShop, () => <GdprNotice purpose="répondre à votre message" legalBasis="votre demande" />);
    expect(
      await screen.findByText(
        /^Les informations saisies sont traitées par Atelier Informatique, responsable du traitement/,
      ),
    ).toBeInTheDocument();
    expect(document.body.textContent).not.toContain("à renseigner");
  });

  it("names the shop in the legal notices' prose, and keeps the facts as typed", async () => {
    renderWith(defaultShop, MentionsLegales);
    expect(
      await screen.findByText(/sont traitées par Atelier Informatique, responsable du traitement/),
    ).toBeInTheDocument();
    expect(screen.getByText(/ou par courrier à Atelier Informatique, 1 rue de l'Exemple/)).toBeInTheDocument();
    expect(screen.getByText("Raison sociale").nextElementSibling).toHaveTextContent(defaultShop.legal.entity);
  });
});

describe("the site's example values", () => {
  it("are told apart from real ones", () => {
    expect(isExampleValue("Hébergeur à renseigner", "Hébergeur à renseigner")).toBe(true);
    expect(isExampleValue("  RCS Paris 000 000 000 (À renseigner) ", "x")).toBe(true);
    expect(isExampleValue("OVH SAS", "Hébergeur à renseigner")).toBe(false);
    expect(exampleLegalFields(named("Atelier Lyon SAS"))).not.toContain("Raison sociale");
    expect(exampleContactFields(defaultShop)).toEqual(["Téléphone", "Adresse e-mail", "Rue"]);
  });
});
