CREATE TABLE "customer_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"address_type" text DEFAULT 'home' NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country_code" text DEFAULT '' NOT NULL,
	"state_code" text,
	"state_name" text,
	"address_status" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'unconfirmed' NOT NULL,
	"customer_confirmed_at" timestamp with time zone,
	"is_card_document_required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"document_type_id" integer NOT NULL,
	"status_id" integer DEFAULT 0 NOT NULL,
	"side" text DEFAULT 'front' NOT NULL,
	"parent_id" integer,
	"address_id" integer,
	"number" text,
	"issued_date" date,
	"expires_date" date,
	"created_username" text NOT NULL,
	"created_by_user_id" integer,
	"reject_reason" text,
	"uploaded" timestamp with time zone DEFAULT now() NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"decided_by_user_id" integer,
	"decided_at" timestamp with time zone,
	CONSTRAINT "customer_documents_size" CHECK ("customer_documents"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "customer_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"email_address" text NOT NULL,
	"status" text DEFAULT 'secondary' NOT NULL,
	"confirmed" boolean DEFAULT false NOT NULL,
	"last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_emails_lower" CHECK ("customer_emails"."email_address" = lower("customer_emails"."email_address"))
);
--> statement-breakpoint
CREATE TABLE "due_diligence_info" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"annual_income" text,
	"net_worth" text,
	"source_of_wealth" text,
	"employer_name" text,
	"address_document_required" boolean DEFAULT false NOT NULL,
	"required_document_type_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"workflow_run_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"channel" text DEFAULT 'camera' NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kyc_info" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"occupation_id" integer,
	"source_of_funds_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"purpose_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expected_monthly_turnover" text,
	"is_politically_exposed" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kyc_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reason" text DEFAULT 'periodicReview' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "limit_reasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"action_type_id" integer NOT NULL,
	"reason" text NOT NULL,
	"required_document_type_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "profile_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"target_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"code_challenge" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "username_change_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "username_change_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"desired_username" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_addresses" ADD CONSTRAINT "customer_addresses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_documents" ADD CONSTRAINT "customer_documents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_documents" ADD CONSTRAINT "customer_documents_address_id_customer_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."customer_addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_documents" ADD CONSTRAINT "customer_documents_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_documents" ADD CONSTRAINT "customer_documents_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_emails" ADD CONSTRAINT "customer_emails_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_info" ADD CONSTRAINT "due_diligence_info_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "due_diligence_info" ADD CONSTRAINT "due_diligence_info_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_jobs" ADD CONSTRAINT "identity_jobs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_jobs" ADD CONSTRAINT "identity_jobs_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_info" ADD CONSTRAINT "kyc_info_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_requests" ADD CONSTRAINT "kyc_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "limit_reasons" ADD CONSTRAINT "limit_reasons_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "limit_reasons" ADD CONSTRAINT "limit_reasons_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_codes" ADD CONSTRAINT "profile_codes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "username_change_logs" ADD CONSTRAINT "username_change_logs_request_id_username_change_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."username_change_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "username_change_requests" ADD CONSTRAINT "username_change_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "username_change_requests" ADD CONSTRAINT "username_change_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_addresses_customer" ON "customer_addresses" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "customer_documents_customer" ON "customer_documents" USING btree ("customer_id","category_id");--> statement-breakpoint
CREATE INDEX "customer_documents_status" ON "customer_documents" USING btree ("status_id","uploaded");--> statement-breakpoint
CREATE INDEX "customer_documents_number" ON "customer_documents" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_emails_address" ON "customer_emails" USING btree ("customer_id","email_address");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_jobs_run" ON "identity_jobs" USING btree ("workflow_run_id");--> statement-breakpoint
CREATE INDEX "identity_jobs_customer" ON "identity_jobs" USING btree ("customer_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "kyc_requests_customer" ON "kyc_requests" USING btree ("customer_id","status");--> statement-breakpoint
CREATE INDEX "limit_reasons_customer" ON "limit_reasons" USING btree ("customer_id","lifted_at");--> statement-breakpoint
CREATE INDEX "profile_codes_target" ON "profile_codes" USING btree ("purpose","target_id","created_at");--> statement-breakpoint
CREATE INDEX "username_change_logs_request" ON "username_change_logs" USING btree ("request_id","at");--> statement-breakpoint
CREATE INDEX "username_change_requests_user" ON "username_change_requests" USING btree ("user_id","created_at");