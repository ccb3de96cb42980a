ALTER TABLE "appointments" ADD COLUMN "link_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "form_key" text;--> statement-breakpoint
CREATE INDEX "appointments_email_idx" ON "appointments" USING btree (lower("email"),"created_at");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_form_key_unique" UNIQUE("form_key");--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_form_key_check" CHECK (char_length("appointments"."form_key") <= 64);