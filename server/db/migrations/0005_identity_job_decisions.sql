ALTER TABLE "identity_jobs" ADD COLUMN "decided_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "identity_jobs" ADD COLUMN "reject_reason" text;--> statement-breakpoint
ALTER TABLE "identity_jobs" ADD CONSTRAINT "identity_jobs_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_codes_customer" ON "profile_codes" USING btree ("customer_id","purpose","created_at");