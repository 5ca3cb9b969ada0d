CREATE TABLE "sign_in_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "token_families" ADD COLUMN "last_active_at" timestamp with time zone DEFAULT now() NOT NULL;