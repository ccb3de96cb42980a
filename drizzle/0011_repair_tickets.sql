CREATE TABLE "repair_ticket_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"author_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repair_ticket_events_status_check" CHECK ("repair_ticket_events"."status" in ('received', 'diagnosis', 'quote-pending', 'repairing', 'ready', 'returned', 'cancelled')),
	CONSTRAINT "repair_ticket_events_note_check" CHECK (char_length("repair_ticket_events"."note") <= 1000)
);
--> statement-breakpoint
CREATE TABLE "repair_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracking_code" text NOT NULL,
	"appointment_id" uuid,
	"model_name" text NOT NULL,
	"repair_label" text NOT NULL,
	"price_euros" integer,
	"condition_notes" text,
	"accessories" text,
	"customer_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"user_id" text,
	"status" text DEFAULT 'received' NOT NULL,
	"quote_description" text,
	"quote_amount_euros" integer,
	"quote_decision" text,
	"quote_decided_at" timestamp with time zone,
	"quote_decided_by" text,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repair_tickets_tracking_code_unique" UNIQUE("tracking_code"),
	CONSTRAINT "repair_tickets_status_check" CHECK ("repair_tickets"."status" in ('received', 'diagnosis', 'quote-pending', 'repairing', 'ready', 'returned', 'cancelled')),
	CONSTRAINT "repair_tickets_tracking_code_check" CHECK ("repair_tickets"."tracking_code" ~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$'),
	CONSTRAINT "repair_tickets_quote_decision_check" CHECK ("repair_tickets"."quote_decision" in ('accepted', 'refused')),
	CONSTRAINT "repair_tickets_price_check" CHECK ("repair_tickets"."price_euros" >= 0 and "repair_tickets"."quote_amount_euros" >= 0)
);
--> statement-breakpoint
ALTER TABLE "repair_ticket_events" ADD CONSTRAINT "repair_ticket_events_ticket_id_repair_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."repair_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_ticket_events" ADD CONSTRAINT "repair_ticket_events_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_tickets" ADD CONSTRAINT "repair_tickets_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repair_tickets" ADD CONSTRAINT "repair_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repair_ticket_events_ticket_idx" ON "repair_ticket_events" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "repair_tickets_status_idx" ON "repair_tickets" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "repair_tickets_appointment_id_idx" ON "repair_tickets" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "repair_tickets_user_id_idx" ON "repair_tickets" USING btree ("user_id");