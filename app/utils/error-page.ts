/**
 * The words of the site's error page (root `ErrorBoundary`), in one place for its heading and its
 * `<title>` (issue 30: the refusal page had no title, WCAG 2.4.2).
 */
import { isRouteErrorResponse } from "react-router";
import { CROSS_SITE_MESSAGE, CROSS_SITE_STATUS } from "./action-origin.ts";

export type ErrorPageText = { title: string; text: string };

/**
 * `error` as the root boundary receives it: a 404, a cross-site form refused by `refuseForeignActions`
 * (issue 30: its own French words, never React Router's English "Bad Request"), or anything else.
 */
export function errorPageText(error: unknown): ErrorPageText {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return { title: "Page introuvable", text: "Cette page n'existe pas ou a été déplacée." };
  }
  if (isRouteErrorResponse(error) && error.status === CROSS_SITE_STATUS && error.data === CROSS_SITE_MESSAGE) {
    return { title: "Demande refusée", text: CROSS_SITE_MESSAGE };
  }
  return {
    title: "Une erreur est survenue",
    text: "Nous n'avons pas pu afficher cette page. Veuillez réessayer dans quelques instants.",
  };
}
