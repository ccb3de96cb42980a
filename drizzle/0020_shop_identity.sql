CREATE TABLE "shop_identity" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"identity" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_identity_single_row" CHECK (id = 1)
);
--> statement-breakpoint
ALTER TABLE "shop_identity" ADD CONSTRAINT "shop_identity_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;