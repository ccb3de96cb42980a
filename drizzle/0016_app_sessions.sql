ALTER TABLE "session_devices" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "user_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "origin" text DEFAULT 'site' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_origin_check" CHECK ("sessions"."origin" in ('site', 'app'));--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_customer_check" CHECK (("sessions"."origin" = 'app') = ("sessions"."user_id" is null));