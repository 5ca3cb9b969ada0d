CREATE TABLE "blacklist" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"email" text NOT NULL,
	"block_type" text DEFAULT 'all' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"from_currency" text NOT NULL,
	"to_currency" text NOT NULL,
	"rate" text NOT NULL,
	"is_default" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_from_currency_to_currency_pk" PRIMARY KEY("from_currency","to_currency"),
	CONSTRAINT "exchange_rates_positive" CHECK ("exchange_rates"."rate" ~ '^[0-9]+(\.[0-9]{1,10})?$')
);
--> statement-breakpoint
CREATE TABLE "fee_rules" (
	"operation" text NOT NULL,
	"currency" text NOT NULL,
	"fixed_minor" bigint DEFAULT 0 NOT NULL,
	"basis_points" integer DEFAULT 0 NOT NULL,
	"min_minor" bigint DEFAULT 0 NOT NULL,
	"max_minor" bigint,
	CONSTRAINT "fee_rules_operation_currency_pk" PRIMARY KEY("operation","currency")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "transfer_approvals" (
	"transfer_id" bigint PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"code_hash" text,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"sent_to" text,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approval_key_hash" text
);
--> statement-breakpoint
CREATE TABLE "transfer_limits" (
	"operation" text NOT NULL,
	"currency" text NOT NULL,
	"min_minor" bigint NOT NULL,
	"max_minor" bigint NOT NULL,
	"daily_minor" bigint NOT NULL,
	CONSTRAINT "transfer_limits_operation_currency_pk" PRIMARY KEY("operation","currency")
);
--> statement-breakpoint
CREATE TABLE "transfer_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"from_account_id" integer NOT NULL,
	"to_account_id" integer NOT NULL,
	"request" jsonb NOT NULL,
	"frequency" text NOT NULL,
	"end_date" date,
	"transactions_total" integer,
	"transactions_done" integer DEFAULT 0 NOT NULL,
	"user_cancel" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'awaitingApproval' NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"from_account_id" integer NOT NULL,
	"to_account_id" integer NOT NULL,
	"to_customer_id" integer NOT NULL,
	"from_currency" text NOT NULL,
	"to_currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"to_amount_minor" bigint NOT NULL,
	"fee_minor" bigint DEFAULT 0 NOT NULL,
	"rate" text DEFAULT '1' NOT NULL,
	"approve_type" text NOT NULL,
	"to_email" text,
	"note" text,
	"reference" text,
	"template_name" text,
	"schedule_id" integer,
	"entry_id" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_positive" CHECK ("transfers"."amount_minor" > 0 and "transfers"."to_amount_minor" > 0 and "transfers"."fee_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "history_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"source" text NOT NULL,
	"account_id" integer,
	"period" text,
	"filter" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"row_count" integer,
	"file_name" text,
	"content" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "customer_access" ADD COLUMN "money_permissions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "money_permissions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "purpose" text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD COLUMN "transfer_id" bigint;--> statement-breakpoint
ALTER TABLE "blacklist" ADD CONSTRAINT "blacklist_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_approvals" ADD CONSTRAINT "transfer_approvals_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_schedules" ADD CONSTRAINT "transfer_schedules_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_schedules" ADD CONSTRAINT "transfer_schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_schedules" ADD CONSTRAINT "transfer_schedules_from_account_id_accounts_account_id_fk" FOREIGN KEY ("from_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_schedules" ADD CONSTRAINT "transfer_schedules_to_account_id_accounts_account_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_from_account_id_accounts_account_id_fk" FOREIGN KEY ("from_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_account_id_accounts_account_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_customer_id_customers_id_fk" FOREIGN KEY ("to_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_exports" ADD CONSTRAINT "history_exports_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_exports" ADD CONSTRAINT "history_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "history_exports" ADD CONSTRAINT "history_exports_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blacklist_customer_email" ON "blacklist" USING btree ("customer_id","email");--> statement-breakpoint
CREATE INDEX "transfer_schedules_due" ON "transfer_schedules" USING btree ("status","next_run_at");--> statement-breakpoint
CREATE INDEX "transfers_customer" ON "transfers" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_to_customer" ON "transfers" USING btree ("to_customer_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_pending" ON "transfers" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "history_exports_customer" ON "history_exports" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "history_exports_monthly" ON "history_exports" USING btree ("account_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_address" ON "accounts" USING btree ("address");--> statement-breakpoint
CREATE INDEX "journal_entries_transfer" ON "journal_entries" USING btree ("transfer_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_pending_held" CHECK ("accounts"."pending_minor" >= 0 and "accounts"."balance_minor" - "accounts"."pending_minor" >= "accounts"."balance_min_minor");