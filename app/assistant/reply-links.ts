/**
 * Links in the assistant's answers (issue 40, « Customers of remote help » §2):
 * an answer names each page it points to, as a Markdown link
 * `[Prendre rendez-vous : Écran, Galaxy S21](/rendez-vous?modele=galaxy-s21&reparation=ecran)`,
 * instead of showing the raw path. Pure and shared: the server names the bare
 * paths of an answer before storing it (`nameBarePaths`, with the current
 * catalogue), the chat views split an answer into text and links
 * (`replySegments`, without the catalogue, for answers stored before).
 *
 * Rules, so that an answer can never carry a harmful link:
 * - only a same-site path (one "/" then URL characters, no "//", no "/\",
 *   no spaces) becomes a link; `[nom](https://…)` or any other target shows
 *   its name as plain text;
 * - a bare path becomes a link only when its first segment is one of the
 *   site's pages (`/services/…`, `/contact`, `/rendez-vous?…`…) and it
 *   stands alone (not the end of "https://ailleurs.fr/contact");
 * - segments are data for React elements, never HTML.
 *
 * The sentence « (Réponse de l'assistant automatique de l'atelier.) » that
 * the offline assistant once put first (`AUTOMATIC_NOTICE`) is dropped: the
 * chat already says who speaks.
 */
import type { Brand } from "#app/catalogue/shapes.ts";
import { modelEntries } from "#app/catalogue/shapes.ts";
import { footerNav, mainNav, servicesNav, waysInNav } from "#app/config/navigation.ts";
import { REPAIR_CATEGORIES } from "#app/config/repair-categories.ts";

/** The sentence that started every offline answer until issue 40; removed wherever it still appears. */
export const AUTOMATIC_NOTICE = "(Réponse de l'assistant automatique de l'atelier.)";
const NOTICE = /\(Réponse de l['’]assistant automatique de l['’]atelier\.\)[ \t]*\n?/g;

/** One piece of an answer: plain text, or a link to `to` (a same-site path) named `name`. */
export type ReplySegment = { kind: "text"; text: string } | { kind: "link"; name: string; to: string };

/** `[name](target)` on one line; the name without brackets, the target without spaces (one level of parentheses). */
const MARKDOWN_LINK = /\[([^[\]\n]{1,200})\]\(((?:[^()\s]|\([^()\s]*\)){1,500})\)/g;
/** A same-site path: "/" not followed by "/" or "\" (both would leave the site), then URL characters only. */
const SITE_PATH = /^\/(?![/\\])[\w\-.~/?#=&%+:@,;!*$]*$/;

/** First segments of the site's pages that a bare path in an answer may start with. */
const PAGE_SEGMENTS = [
  "services",
  "contact",
  "soft-assist",
  "repair",
  "dev-web",
  "rendez-vous",
  "suivi",
  "sales",
  "products",
  "assistance-informatique",
  "solutions-pro",
  "gaming-vr",
  "vente-reparation",
  "mentions-legales",
];
/**
 * A bare site path in text: "/services/playstation-repair#ps5", "/rendez-vous?modele=ps5&reparation=port-hdmi".
 * Not inside another address (no letter, digit, "/", ":", "." or "-" just before it).
 */
const BARE_PATH = new RegExp(
  `(?<![\\w/:.\\-])(\\/(?:${PAGE_SEGMENTS.join("|")})(?:\\/[a-z0-9\\-/]*)?(?:\\?[a-z0-9\\-=&%]+)?(?:#[a-z0-9-]+)?)(?![\\w/\\-])`,
  "g",
);

/** Whether `target` is a path of this site that may be rendered as a link. */
export function isSitePath(target: string): boolean {
  return SITE_PATH.test(target);
}

/** Names of the site's own pages: the navigation's labels, the repair categories' titles, then ours. */
const PAGE_NAMES = new Map<string, string>([
  ...[...footerNav, ...mainNav, ...servicesNav, ...waysInNav].map((item) => [item.to, item.label] as const),
  ...REPAIR_CATEGORIES.map((category) => [category.path, category.title] as const),
  // The top bar says « Contact »; in a sentence the link is an invitation.
  ["/contact", "Nous contacter"],
]);

/** The booking form's name, with the model and repair of its query when `brands` knows them. */
function bookingName(query: URLSearchParams, brands: readonly Brand[]): string {
  const entry = modelEntries(brands).find(({ model }) => model.slug === query.get("modele"));
  if (!entry) return "Prendre rendez-vous";
  // The wording of the booking links on the price pages and in the finder (« Prendre rendez-vous : Écran, iPhone 13 »).
  const repair = entry.model.repairs.find((candidate) => candidate.id === query.get("reparation"));
  return `Prendre rendez-vous : ${repair ? `${repair.label}, ` : ""}${entry.model.name}`;
}

/**
 * The name of site path `path` for a link: "/contact" → « Nous contacter »,
 * "/suivi" → « Suivre ma réparation », "/rendez-vous?modele=ps5&reparation=port-hdmi"
 * → « Prendre rendez-vous : Port HDMI, PS5 », "/services/playstation-repair#ps5"
 * → « Réparation PlayStation : PS5 » (the brand page's title and the model, from
 * `brands`). Without `brands` (the browser), catalogue pages get a general
 * name. Null for a path that is none of the site's pages.
 */
export function sitePathName(path: string, brands: readonly Brand[] = []): string | null {
  if (!isSitePath(path)) return null;
  const url = new URL(path, "https://site.invalid");
  const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/$/, "") : url.pathname;
  if (pathname === "/rendez-vous") return bookingName(url.searchParams, brands);
  const brand = brands.find((candidate) => candidate.path === pathname);
  if (brand) {
    const anchor = url.hash.slice(1);
    const series = brand.series.find((candidate) => candidate.slug === anchor);
    const model = brand.series.flatMap((candidate) => candidate.models).find((candidate) => candidate.slug === anchor);
    const part = model?.name ?? series?.name;
    return part ? `${brand.title} : ${part}` : brand.title;
  }
  const known = PAGE_NAMES.get(pathname);
  if (known) return known;
  return /^\/services\/[a-z0-9-]+-repair$/.test(pathname) ? "Nos tarifs de réparation" : null;
}

/** `text` without the old « assistant automatique » sentence (issue 40), wherever a model repeated it. */
export function withoutNotice(text: string): string {
  return text.replace(NOTICE, "").replace(/^\s+/, "");
}

/** `text` cut at its Markdown links: [text, name, target, text, name, target, …, text]. */
const splitLinks = (text: string) => text.split(MARKDOWN_LINK);

/**
 * `text` (an answer) with each bare site path written as a named Markdown
 * link, named by `name` (default `sitePathName` without the catalogue); paths
 * it cannot name stay as they are, and so do existing Markdown links.
 */
export function nameBarePaths(text: string, name: (path: string) => string | null = sitePathName): string {
  return splitLinks(text)
    .map((part, index) => {
      if (index % 3 === 1) return `[${part}]`;
      if (index % 3 === 2) return `(${part})`;
      return part.replace(BARE_PATH, (path) => {
        const named = name(path);
        return named ? `[${named}](${path})` : path;
      });
    })
    .join("");
}

/**
 * An answer as segments to render (the chat panel, the technician's copy):
 * the notice dropped, `[name](/path)` and bare site paths as links, every
 * other Markdown link as its name alone. `name` names bare paths.
 */
export function replySegments(text: string, name: (path: string) => string | null = sitePathName): ReplySegment[] {
  const segments: ReplySegment[] = [];
  const pushText = (value: string) => {
    if (!value) return;
    const last = segments.at(-1);
    if (last?.kind === "text") last.text += value;
    else segments.push({ kind: "text", text: value });
  };
  const parts = splitLinks(withoutNotice(text));
  for (let index = 0; index < parts.length; index += 3) {
    const pieces = parts[index]!.split(BARE_PATH);
    pieces.forEach((piece, position) => {
      const named = position % 2 === 1 ? name(piece) : null;
      if (named) segments.push({ kind: "link", name: named, to: piece });
      else pushText(piece);
    });
    const label = parts[index + 1];
    const target = parts[index + 2];
    if (label === undefined || target === undefined) continue;
    if (isSitePath(target)) segments.push({ kind: "link", name: label.trim(), to: target });
    // Never a link off the site: the name alone, as text.
    else pushText(label);
  }
  return segments;
}
