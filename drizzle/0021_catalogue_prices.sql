CREATE TABLE "catalogue_added_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"brand_slug" text NOT NULL,
	"series_slug" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_added_models_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "catalogue_hidden_models" (
	"brand_slug" text NOT NULL,
	"model_slug" text NOT NULL,
	"hidden_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_hidden_models_brand_slug_model_slug_pk" PRIMARY KEY("brand_slug","model_slug")
);
--> statement-breakpoint
CREATE TABLE "catalogue_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "catalogue_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" text,
	"user_name" text NOT NULL,
	"kind" text NOT NULL,
	"brand_slug" text NOT NULL,
	"model_slug" text NOT NULL,
	"model_name" text NOT NULL,
	"repair_id" text,
	"old_value" text,
	"new_value" text,
	CONSTRAINT "catalogue_history_kind_check" CHECK ("catalogue_history"."kind" in ('price', 'source', 'hide', 'show', 'add-model'))
);
--> statement-breakpoint
CREATE TABLE "catalogue_prices" (
	"brand_slug" text NOT NULL,
	"model_slug" text NOT NULL,
	"repair_id" text NOT NULL,
	"euros" integer NOT NULL,
	"estimate" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalogue_prices_brand_slug_model_slug_repair_id_pk" PRIMARY KEY("brand_slug","model_slug","repair_id"),
	CONSTRAINT "catalogue_prices_euros_check" CHECK ("catalogue_prices"."euros" > 0)
);
--> statement-breakpoint
ALTER TABLE "catalogue_history" ADD CONSTRAINT "catalogue_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_history_changed_at_idx" ON "catalogue_history" USING btree ("changed_at");