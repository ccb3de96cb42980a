// @vitest-environment happy-dom
/**
 * Issue 40, « Customers of remote help » §2, as the customer sees an answer:
 * named links to the site's pages (« Prendre rendez-vous… », « Nous
 * contacter »), never a raw path, never a link off the site, never HTML; the
 * technician's copy names them without links.
 */
import { render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ReplyText } from "./reply-text";

/** `ReplyText` inside a router (its links are React Router links), in a paragraph as the chat shows it. */
function showAnswer(text: string, linkable?: boolean) {
  const Stub = createRoutesStub([
    {
      path: "/soft-assist",
      Component: () => (
        <p data-testid="reponse">
          <ReplyText text={text} linkable={linkable} />
        </p>
      ),
    },
  ]);
  render(<Stub initialEntries={["/soft-assist"]} />);
  return screen.getByTestId("reponse");
}

describe("ReplyText", () => {
  it("shows the booking form and the page as links with their names, not their paths", () => {
    const answer = showAnswer(
      "Pour votre Galaxy S21 (Samsung) :\n- Écran : à partir de 189 €\n[Prendre rendez-vous pour l'écran du Galaxy S21](/rendez-vous?modele=galaxy-s21&reparation=ecran)\nUne question ? /contact",
    );
    expect(screen.getByRole("link", { name: "Prendre rendez-vous pour l'écran du Galaxy S21" })).toHaveAttribute(
      "href",
      "/rendez-vous?modele=galaxy-s21&reparation=ecran",
    );
    expect(screen.getByRole("link", { name: "Nous contacter" })).toHaveAttribute("href", "/contact");
    expect(answer).not.toHaveTextContent("/rendez-vous");
    expect(answer).not.toHaveTextContent("](");
    expect(answer).toHaveTextContent("Écran : à partir de 189 €");
  });

  it("links nothing off the site and renders no HTML from an answer", () => {
    const answer = showAnswer(
      'Voyez [le site du fabricant](https://exemple-pirate.fr) ou [ceci](//exemple-pirate.fr). <img src="x" onerror="alert(1)"><a href="https://exemple-pirate.fr">ici</a>',
    );
    expect(screen.queryAllByRole("link")).toEqual([]);
    expect(answer.querySelector("img")).toBeNull();
    expect(answer).toHaveTextContent('Voyez le site du fabricant ou ceci. <img src="x" onerror="alert(1)">');
  });

  it("drops the old « assistant automatique » sentence", () => {
    const answer = showAnswer("(Réponse de l'assistant automatique de l'atelier.)\nNos horaires : …");
    expect(answer).toHaveTextContent(/^Nos horaires/);
  });

  it("names the links without making them links in the technician's copy", () => {
    const answer = showAnswer(
      "[Prendre rendez-vous : Écran, Galaxy S21](/rendez-vous?modele=galaxy-s21&reparation=ecran)",
      false,
    );
    expect(screen.queryAllByRole("link")).toEqual([]);
    expect(answer).toHaveTextContent(
      "Prendre rendez-vous : Écran, Galaxy S21 (/rendez-vous?modele=galaxy-s21&reparation=ecran)",
    );
  });
});
