CREATE TABLE "request_treatments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contact_request_id" uuid,
	"quote_request_id" uuid,
	"treated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"treated_by" text,
	CONSTRAINT "request_treatments_contact_request_id_unique" UNIQUE("contact_request_id"),
	CONSTRAINT "request_treatments_quote_request_id_unique" UNIQUE("quote_request_id"),
	CONSTRAINT "request_treatments_one_request_check" CHECK (("request_treatments"."contact_request_id" is null) <> ("request_treatments"."quote_request_id" is null))
);
--> statement-breakpoint
ALTER TABLE "request_treatments" ADD CONSTRAINT "request_treatments_contact_request_id_contact_requests_id_fk" FOREIGN KEY ("contact_request_id") REFERENCES "public"."contact_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_treatments" ADD CONSTRAINT "request_treatments_quote_request_id_quote_requests_id_fk" FOREIGN KEY ("quote_request_id") REFERENCES "public"."quote_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_treatments" ADD CONSTRAINT "request_treatments_treated_by_users_id_fk" FOREIGN KEY ("treated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;