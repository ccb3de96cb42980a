CREATE TABLE "staff_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"email" text,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "staff_invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "staff_invitations_kind_check" CHECK ("staff_invitations"."kind" in ('technician', 'manager-setup')),
	CONSTRAINT "staff_invitations_email_check" CHECK (("staff_invitations"."kind" = 'technician') = ("staff_invitations"."email" is not null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
-- Issue 29: technicians stay technicians; then the boolean goes (roleOf/roleFields read and write "role" only).
UPDATE "users" SET "role" = 'technician' WHERE "is_technician";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "is_technician";--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_invitations_pending_email_idx" ON "staff_invitations" USING btree ("email") WHERE "staff_invitations"."used_at" is null;--> statement-breakpoint
CREATE INDEX "staff_invitations_expires_at_idx" ON "staff_invitations" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("users"."role" in ('customer', 'technician', 'manager'));