CREATE TABLE "account_recovery_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_counters_scope_key_window_start_pk" PRIMARY KEY("scope","key","window_start")
);
--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "first_name" text;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "last_name" text;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "dob" text;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "documents_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "cancel_code_hash" text;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "cancel_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "decided_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "reject_comment" text;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "retryable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_recovery_files" ADD CONSTRAINT "account_recovery_files_task_id_account_recovery_tasks_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."account_recovery_tasks"("task_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_recovery_files_task" ON "account_recovery_files" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "rate_limit_counters_window" ON "rate_limit_counters" USING btree ("window_start");--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD CONSTRAINT "account_recovery_tasks_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Reasons of the old automatic decision: the contract now knows identityNotConfirmed and canceled only.
UPDATE "account_recovery_tasks" SET "reject_reason" = 'identityNotConfirmed' WHERE "reject_reason" IN ('personalDataMismatch', 'tooManyAttempts');
