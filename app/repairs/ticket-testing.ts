/**
 * Tests only: a staff view of a walk-in ticket just opened (« Reçu », no quote, no deposit notes), the one the
 * dashboard's repair tests (issue 40: link, panel, view) start from and vary by spreading.
 */
import type { StaffRepairTicket } from "./protocol.ts";

export const STAFF_TICKET = {
  id: "0b6f3c1e-2d4a-4c8e-9f10-7a2b3c4d5e6f",
  code: "UZFD-GY5Y",
  modelName: "iPhone 13",
  repairLabel: "Écran",
  priceEuros: 119,
  priceFromQuote: false,
  estimateEuros: null,
  afterBonus: null,
  status: "received",
  events: [],
  quote: null,
  warrantyUntil: null,
  appointmentId: null,
  conditionNotes: null,
  accessories: null,
  customerName: "Inès Morel",
  email: "ines@exemple.fr",
  phone: "06 12 34 56 78",
  quoteDecidedBy: null,
  catalogue: null,
  createdAt: "2026-11-24T09:05:00.000Z",
  updatedAt: "2026-11-24T09:05:00.000Z",
} satisfies StaffRepairTicket;
