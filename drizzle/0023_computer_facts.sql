CREATE TABLE "session_computer_facts" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"facts" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_computer_facts_size_check" CHECK (pg_column_size("session_computer_facts"."facts") <= 8192)
);
--> statement-breakpoint
ALTER TABLE "session_computer_facts" ADD CONSTRAINT "session_computer_facts_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;