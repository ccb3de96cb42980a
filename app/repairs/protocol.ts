/**
 * Issue 18 §2, what the repair-tracking server and its screens say to each
 * other: the ticket views (staff and public), the French messages and the API
 * paths. No zod here (the schemas are in `schemas.ts`), so the dashboard's
 * chunk and the tracking page only download types and texts.
 */
import type { QuoteDecision, RepairStatus } from "./statuses.ts";

/** Limits in characters (and euros), also the forms' `maxLength` / `max`. */
export const REPAIR_LIMITS = {
  modelName: 120,
  repairLabel: 120,
  conditionNotes: 2000,
  accessories: 500,
  customerName: 100,
  email: 254,
  phone: 30,
  note: 1000,
  quoteDescription: 2000,
  /** Whole euros: a repair bill, not a typo with extra zeros. */
  euros: 100_000,
  /** The tracking form's "E-mail ou téléphone". */
  contact: 254,
} as const;

/**
 * One step of a ticket, as both views show it (ISO 8601 time). `quote`: the quote the step sent or answered
 * (whole euros), so a quote replaced later still reads in the history; null on other steps.
 */
export type RepairEventView = {
  status: RepairStatus;
  note: string | null;
  at: string;
  quote: { description: string; amountEuros: number } | null;
};

/** A ticket's quote; `decidedBy` "client" or a staff member's name (staff view only). */
export type RepairQuoteView = {
  description: string;
  amountEuros: number;
  decision: QuoteDecision | null;
  decidedAt: string | null;
};

/**
 * What the public tracking page shows (code + contact checked): no contact
 * details, no internal notes. `warrantyUntil` is "YYYY-MM-DD" once "Rendu".
 */
export type PublicRepairTicket = {
  /** "R7K3-QXMA". */
  code: string;
  modelName: string;
  repairLabel: string;
  /**
   * The price of the repair, whole euros: the accepted quote's amount once the customer accepted one
   * (issue 40), else the price announced when the ticket was opened; null when neither is known.
   */
  priceEuros: number | null;
  /** Whether `priceEuros` is the amount of a quote the customer accepted (it stays so while a later one waits). */
  priceFromQuote: boolean;
  /**
   * Issue 40: the price announced at the opening when an accepted quote's different amount replaced it,
   * shown struck as « Estimation initiale »; else null.
   */
  estimateEuros: number | null;
  /**
   * Issue 18 §3: "64 € après bonus réparation" when the shop shows the bonus and the ticket's catalogue repair
   * (booked, or named by a walk-in's typed model and repair) is eligible.
   */
  afterBonus: string | null;
  status: RepairStatus;
  events: RepairEventView[];
  quote: RepairQuoteView | null;
  warrantyUntil: string | null;
};

/** A ticket as staff see it (dashboard, `/api/repairs/:id`). */
export type StaffRepairTicket = Omit<PublicRepairTicket, "events"> & {
  id: string;
  appointmentId: string | null;
  conditionNotes: string | null;
  accessories: string | null;
  customerName: string;
  email: string;
  phone: string;
  quoteDecidedBy: string | null;
  /**
   * The catalogue's entry for the ticket's model and repair (booked, or matched from a walk-in's words):
   * what staff can announce, "à partir de 119 €". Null when the words named none.
   */
  catalogue: { model: string; repair: string; price: string } | null;
  events: (RepairEventView & { authorName: string | null })[];
  createdAt: string;
  updatedAt: string;
};

/** A line of the staff list. */
export type RepairTicketSummary = Pick<
  StaffRepairTicket,
  "id" | "code" | "modelName" | "repairLabel" | "status" | "customerName" | "createdAt" | "updatedAt"
>;

export type RepairListResponse = { tickets: RepairTicketSummary[] };
export type RepairTicketResponse = { ticket: StaffRepairTicket };

export const REPAIR_MESSAGES = {
  /** The only refusal of the tracking page, whatever part is wrong (issue 18 §2: "revealing nothing"). */
  notFound: "Aucune réparation ne correspond à ce code et à ces coordonnées.",
  ticketNotFound: "Réparation introuvable.",
  appointmentNotFound: "Rendez-vous introuvable.",
  appointmentHasTicket: (code: string) => `Une réparation est déjà ouverte pour ce rendez-vous (code ${code}).`,
  badId: "Identifiant de réparation invalide.",
  failed: "Une erreur est survenue. Veuillez réessayer.",
  listFailed: "Les réparations n'ont pas pu être lues. Veuillez réessayer.",
  noQuote: "Aucun devis n'attend de réponse pour cette réparation.",
  /** Issue 30: the quote was replaced between the customer's reading and their confirmation. */
  quoteChanged: "Le devis a changé depuis votre lecture : vérifiez le nouveau montant avant de répondre.",
  /** Issue 40: the deposit's record is kept as it was once the device is given back or the repair cancelled. */
  dropOffClosed: (status: string) => `Cette réparation est « ${status} » : son dépôt ne se modifie plus.`,
  quoteNotAllowed: "Un devis ne peut plus être saisi pour cette réparation.",
  tooManyAttempts: (minutes: number) =>
    `Trop de tentatives depuis votre connexion. Réessayez dans ${minutes} minute${minutes > 1 ? "s" : ""}, ou appelez-nous.`,
  accepted: "Merci : vous avez accepté le devis. Nous poursuivons la réparation.",
  refused: "Vous avez refusé le devis. L'atelier vous recontacte pour la suite.",
  unreadableForm: "Le formulaire envoyé est illisible. Rechargez la page et réessayez.",
  /** Issue 28 §3: the claim of a ticket another account follows (whose is never said); `phone`: the shop's. */
  claimedElsewhere: (phone: string) =>
    `Cette réparation est déjà suivie dans un autre compte. Si c'est la vôtre, appelez l'atelier au ${phone}.`,
} as const;

/** Issue 18 §2: a ticket as its customer sees it in their account (`/soft-assist`). */
export type CustomerRepairLine = {
  /** "R7K3-QXMA". */
  code: string;
  modelName: string;
  repairLabel: string;
  status: RepairStatus;
  updatedAt: string;
};
export type CustomerRepairsResponse = { repairs: CustomerRepairLine[] };

/** The staff API's paths. */
export const REPAIR_PATHS = {
  /** The signed-in customer's tickets (GET), and adding one by code + contact (POST). */
  mine: "/api/repairs/mine",
  list: "/api/repairs",
  create: "/api/repairs",
  /** A ticket by its id, or by its tracking code ("UZFD-GY5Y", issue 40: the dashboard's link). */
  ticket: (idOrCode: string) => `/api/repairs/${encodeURIComponent(idOrCode)}`,
  status: (id: string) => `/api/repairs/${encodeURIComponent(id)}/status`,
  quote: (id: string) => `/api/repairs/${encodeURIComponent(id)}/quote`,
  decision: (id: string) => `/api/repairs/${encodeURIComponent(id)}/decision`,
  /** Issue 40: the device's state when dropped off and the accessories left with it. */
  dropOff: (id: string) => `/api/repairs/${encodeURIComponent(id)}/drop-off`,
} as const;

/** Issue 40: the dashboard's query parameter naming the ticket to show (`?reparation=UZFD-GY5Y`). */
export const REPAIR_DASHBOARD_PARAM = "reparation";

/** Issue 40: where the dashboard shows ticket `code` in its « Réparations » view: `/soft-assist?reparation=UZFD-GY5Y`. */
export function repairDashboardHref(code: string): string {
  return `/soft-assist?${REPAIR_DASHBOARD_PARAM}=${encodeURIComponent(code)}`;
}

/** The public page's link for `code` (mails): `${publicUrl}/suivi?code=R7K3-QXMA`. */
export function trackingLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/$/, "")}/suivi?code=${encodeURIComponent(code)}`;
}
