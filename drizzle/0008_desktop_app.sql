CREATE TABLE "device_pairing_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_devices" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"pairing_id" uuid,
	"token_hash" text,
	"computer_name" text,
	"platform" text,
	"arch" text,
	"app_version" text,
	"injection" jsonb,
	"screens" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"consent" boolean DEFAULT false NOT NULL,
	"display_surface" text,
	"surface_width" integer,
	"surface_height" integer,
	"connected" boolean DEFAULT false NOT NULL,
	"connection_id" text,
	"last_seen_at" timestamp with time zone,
	"paired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_devices_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "session_events" DROP CONSTRAINT "session_events_kind_check";--> statement-breakpoint
ALTER TABLE "device_pairing_codes" ADD CONSTRAINT "device_pairing_codes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_pairing_codes" ADD CONSTRAINT "device_pairing_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_devices" ADD CONSTRAINT "session_devices_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_devices" ADD CONSTRAINT "session_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_pairing_codes_session_id_idx" ON "device_pairing_codes" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "session_devices_user_id_idx" ON "session_devices" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "session_events" ADD CONSTRAINT "session_events_kind_check" CHECK ("session_events"."kind" in ('joined', 'sharing-started', 'sharing-stopped', 'control-on', 'control-off', 'chat', 'ended', 'device-paired', 'control-allowed', 'control-withdrawn', 'device-unpaired'));