ALTER TABLE "repair_tickets" ADD COLUMN "model_slug" text;--> statement-breakpoint
ALTER TABLE "repair_tickets" ADD COLUMN "repair_id" text;--> statement-breakpoint
-- Tickets opened from an appointment before this migration take its catalogue model and repair.
UPDATE "repair_tickets" SET "model_slug" = "appointments"."model_slug", "repair_id" = "appointments"."repair_id" FROM "appointments" WHERE "repair_tickets"."appointment_id" = "appointments"."id";
