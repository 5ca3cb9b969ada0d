CREATE TABLE "business_representative_identity_jobs" (
	"job_id" integer PRIMARY KEY NOT NULL,
	"representative_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_representative_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"representative_id" integer NOT NULL,
	"secret_hash" text NOT NULL,
	"email" text NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "business_representative_links_email_lower" CHECK ("business_representative_links"."email" = lower("business_representative_links"."email"))
);
--> statement-breakpoint
CREATE TABLE "business_statement_acceptances" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"representative_id" integer,
	"text_version" text NOT NULL,
	"text_sha256" text NOT NULL,
	"accepted_by_user_id" integer NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	"ip" text NOT NULL,
	CONSTRAINT "business_statement_acceptances_rep_kind" CHECK (("business_statement_acceptances"."kind" = 'prohibitedEscort') = ("business_statement_acceptances"."representative_id" is null))
);
--> statement-breakpoint
ALTER TABLE "business_representative_identity_jobs" ADD CONSTRAINT "business_representative_identity_jobs_job_id_identity_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."identity_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representative_identity_jobs" ADD CONSTRAINT "business_representative_identity_jobs_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representative_links" ADD CONSTRAINT "business_representative_links_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representative_links" ADD CONSTRAINT "business_representative_links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_statement_acceptances" ADD CONSTRAINT "business_statement_acceptances_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_statement_acceptances" ADD CONSTRAINT "business_statement_acceptances_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_statement_acceptances" ADD CONSTRAINT "business_statement_acceptances_accepted_by_user_id_users_id_fk" FOREIGN KEY ("accepted_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_representative_identity_jobs_rep" ON "business_representative_identity_jobs" USING btree ("representative_id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_representative_links_secret" ON "business_representative_links" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "business_representative_links_rep" ON "business_representative_links" USING btree ("representative_id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_statement_acceptances_rep" ON "business_statement_acceptances" USING btree ("customer_id","kind","representative_id") WHERE "business_statement_acceptances"."representative_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "business_statement_acceptances_company" ON "business_statement_acceptances" USING btree ("customer_id","kind") WHERE "business_statement_acceptances"."representative_id" is null;