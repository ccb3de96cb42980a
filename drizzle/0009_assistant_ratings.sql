CREATE TABLE "assistant_ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid,
	"user_id" text NOT NULL,
	"rating" text NOT NULL,
	"comment" text,
	"answer" text NOT NULL,
	"conversation" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assistant_ratings_message_id_unique" UNIQUE("message_id"),
	CONSTRAINT "assistant_ratings_rating_check" CHECK ("assistant_ratings"."rating" in ('useful', 'not-useful')),
	CONSTRAINT "assistant_ratings_comment_check" CHECK (char_length("assistant_ratings"."comment") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "assistant_ratings" ADD CONSTRAINT "assistant_ratings_message_id_assistant_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."assistant_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_ratings" ADD CONSTRAINT "assistant_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_ratings_list_idx" ON "assistant_ratings" USING btree ("rating","updated_at");--> statement-breakpoint
CREATE INDEX "assistant_ratings_updated_at_idx" ON "assistant_ratings" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "assistant_ratings_user_id_idx" ON "assistant_ratings" USING btree ("user_id");