ALTER TABLE "session_events" DROP CONSTRAINT "session_events_kind_check";--> statement-breakpoint
ALTER TABLE "session_devices" ADD COLUMN "view_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "session_devices" ADD COLUMN "capture" jsonb;--> statement-breakpoint
ALTER TABLE "session_devices" ADD COLUMN "shown_screen" text;--> statement-breakpoint
ALTER TABLE "session_events" ADD CONSTRAINT "session_events_kind_check" CHECK ("session_events"."kind" in ('joined', 'sharing-started', 'sharing-stopped', 'control-on', 'control-off', 'chat', 'ended', 'device-paired', 'control-allowed', 'control-withdrawn', 'device-unpaired', 'view-allowed', 'view-withdrawn'));