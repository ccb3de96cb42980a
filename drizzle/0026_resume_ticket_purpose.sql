ALTER TABLE "device_resume_tickets" ADD COLUMN "purpose" text DEFAULT 'elevation' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_resume_tickets" ADD CONSTRAINT "device_resume_tickets_purpose_check" CHECK ("device_resume_tickets"."purpose" in ('elevation', 'reboot'));--> statement-breakpoint
-- Before this column a ticket's lifetime told its purpose: past 510 s (between the relaunch's 2 min and the
-- restart's 15 min, REBOOT_TICKET_MIN_S then), a restart's.
UPDATE "device_resume_tickets" SET "purpose" = 'reboot' WHERE "expires_at" - "created_at" > interval '510 seconds';
