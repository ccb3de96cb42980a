CREATE TABLE "device_resume_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"pairing_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_devices" ADD COLUMN "elevated" boolean;--> statement-breakpoint
ALTER TABLE "session_devices" ADD COLUMN "secure_desktop" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "device_resume_tickets" ADD CONSTRAINT "device_resume_tickets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_resume_tickets_session_id_idx" ON "device_resume_tickets" USING btree ("session_id");