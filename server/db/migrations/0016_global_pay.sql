CREATE TABLE "global_pay_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"currency" text NOT NULL,
	"name" text NOT NULL,
	"source" text DEFAULT 'file' NOT NULL,
	"content_hash" text,
	"state" text DEFAULT 'draft' NOT NULL,
	"transfer_id" bigint,
	"expire_days" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	CONSTRAINT "global_pay_batches_transfer_id_unique" UNIQUE("transfer_id")
);
--> statement-breakpoint
CREATE TABLE "global_payment_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"batch_id" bigint NOT NULL,
	"line" integer NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"beneficiary_name" text NOT NULL,
	"beneficiary_email" text NOT NULL,
	"beneficiary_country_code" text NOT NULL,
	"beneficiary_type" text DEFAULT 'individual' NOT NULL,
	"amount_minor" bigint NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"fee_share" text DEFAULT 'sender' NOT NULL,
	"forbidden_methods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"held_fee_minor" bigint DEFAULT 0 NOT NULL,
	"secret_hash" text,
	"expires_at" timestamp with time zone,
	"operation_id" text,
	"pending_method" text,
	"pending_currency" text,
	"pending_beneficiary" jsonb,
	"code_hash" text,
	"code_attempts" smallint DEFAULT 0 NOT NULL,
	"code_sent_at" timestamp with time zone,
	"payout_transfer_id" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_payments_operation_id_unique" UNIQUE("operation_id"),
	CONSTRAINT "global_payments_payout_transfer_id_unique" UNIQUE("payout_transfer_id"),
	CONSTRAINT "global_payments_amounts" CHECK ("global_payments"."amount_minor" > 0 and "global_payments"."held_fee_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "global_pay_batches" ADD CONSTRAINT "global_pay_batches_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_pay_batches" ADD CONSTRAINT "global_pay_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_pay_batches" ADD CONSTRAINT "global_pay_batches_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_pay_batches" ADD CONSTRAINT "global_pay_batches_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_payments" ADD CONSTRAINT "global_payments_batch_id_global_pay_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."global_pay_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_payments" ADD CONSTRAINT "global_payments_payout_transfer_id_transfers_id_fk" FOREIGN KEY ("payout_transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "global_pay_batches_customer" ON "global_pay_batches" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "global_pay_batches_hash" ON "global_pay_batches" USING btree ("account_id","content_hash");--> statement-breakpoint
CREATE INDEX "global_payments_batch" ON "global_payments" USING btree ("batch_id","id");--> statement-breakpoint
CREATE INDEX "global_payments_waiting" ON "global_payments" USING btree ("state","expires_at");