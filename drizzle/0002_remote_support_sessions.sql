CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"user_id" text NOT NULL,
	"technician_id" text,
	"status" text DEFAULT 'disconnected' NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"duration_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_name" text NOT NULL,
	"user_email" text NOT NULL,
	CONSTRAINT "sessions_code_unique" UNIQUE("code"),
	CONSTRAINT "sessions_status_check" CHECK ("sessions"."status" in ('disconnected', 'connected'))
);
--> statement-breakpoint
CREATE TABLE "signaling" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_code" text NOT NULL,
	"sender_id" text NOT NULL,
	"data" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_technician_id_users_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signaling" ADD CONSTRAINT "signaling_session_code_sessions_code_fk" FOREIGN KEY ("session_code") REFERENCES "public"."sessions"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_technician_id_idx" ON "sessions" USING btree ("technician_id","created_at");--> statement-breakpoint
CREATE INDEX "signaling_session_code_idx" ON "signaling" USING btree ("session_code","created_at");