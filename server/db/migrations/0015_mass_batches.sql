CREATE TABLE "transfer_batch_rows" (
	"batch_id" bigint NOT NULL,
	"line" integer NOT NULL,
	"payee" jsonb NOT NULL,
	"amount_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"note" text,
	"reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"transfer_id" bigint,
	"error_code" text,
	"error_description" text,
	CONSTRAINT "transfer_batch_rows_batch_id_line_pk" PRIMARY KEY("batch_id","line"),
	CONSTRAINT "transfer_batch_rows_amounts" CHECK ("transfer_batch_rows"."amount_minor" > 0 and "transfer_batch_rows"."fee_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "transfer_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"currency" text NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"row_count" integer NOT NULL,
	"done_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "transfer_batches_transfer_id_unique" UNIQUE("transfer_id"),
	CONSTRAINT "transfer_batches_counts" CHECK ("transfer_batches"."done_count" >= 0 and "transfer_batches"."failed_count" >= 0 and "transfer_batches"."done_count" + "transfer_batches"."failed_count" <= "transfer_batches"."row_count")
);
--> statement-breakpoint
ALTER TABLE "transfer_batch_rows" ADD CONSTRAINT "transfer_batch_rows_batch_id_transfer_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."transfer_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_batch_rows" ADD CONSTRAINT "transfer_batch_rows_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_batches" ADD CONSTRAINT "transfer_batches_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_batches" ADD CONSTRAINT "transfer_batches_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_batches" ADD CONSTRAINT "transfer_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_batches" ADD CONSTRAINT "transfer_batches_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_batches_customer" ON "transfer_batches" USING btree ("customer_id","created_at");