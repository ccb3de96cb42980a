ALTER TABLE "repair_ticket_events" ADD COLUMN "quote_description" text;--> statement-breakpoint
ALTER TABLE "repair_ticket_events" ADD COLUMN "quote_amount_euros" integer;--> statement-breakpoint
ALTER TABLE "repair_tickets" ADD COLUMN "agreed_price_euros" integer;--> statement-breakpoint
ALTER TABLE "repair_ticket_events" ADD CONSTRAINT "repair_ticket_events_quote_amount_check" CHECK ("repair_ticket_events"."quote_amount_euros" >= 0);--> statement-breakpoint
ALTER TABLE "repair_tickets" ADD CONSTRAINT "repair_tickets_agreed_price_check" CHECK ("repair_tickets"."agreed_price_euros" >= 0);--> statement-breakpoint
-- Tickets whose quote was accepted keep its amount as their price.
UPDATE "repair_tickets" SET "agreed_price_euros" = "quote_amount_euros" WHERE "quote_decision" = 'accepted';--> statement-breakpoint
-- The quote a ticket holds goes on the step that sent it: its last « Devis à valider » step before the answer.
UPDATE "repair_ticket_events" AS "step" SET "quote_description" = "ticket"."quote_description", "quote_amount_euros" = "ticket"."quote_amount_euros"
FROM "repair_tickets" AS "ticket"
WHERE "step"."ticket_id" = "ticket"."id" AND "ticket"."quote_amount_euros" IS NOT NULL AND "step"."id" = (
  SELECT "sent"."id" FROM "repair_ticket_events" AS "sent"
  WHERE "sent"."ticket_id" = "ticket"."id" AND "sent"."status" = 'quote-pending'
    AND "sent"."created_at" < coalesce("ticket"."quote_decided_at", 'infinity'::timestamptz)
  ORDER BY "sent"."created_at" DESC LIMIT 1
);--> statement-breakpoint
-- …and on the step that answered it.
UPDATE "repair_ticket_events" AS "step" SET "quote_description" = "ticket"."quote_description", "quote_amount_euros" = "ticket"."quote_amount_euros"
FROM "repair_tickets" AS "ticket"
WHERE "step"."ticket_id" = "ticket"."id" AND "ticket"."quote_amount_euros" IS NOT NULL
  AND "ticket"."quote_decided_at" IS NOT NULL AND "step"."created_at" = "ticket"."quote_decided_at";
