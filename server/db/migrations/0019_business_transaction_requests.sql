CREATE TABLE "business_approval_confirmations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"approver_user_id" integer NOT NULL,
	"request_ids" jsonb NOT NULL,
	"method" text NOT NULL,
	"code_hash" text,
	"sent_to" text,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "business_approval_confirmations_attempts" CHECK ("business_approval_confirmations"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "business_transaction_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"transfer_id" bigint NOT NULL,
	"initiator_user_id" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"decided_by_user_id" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "business_transaction_requests_transfer_id_unique" UNIQUE("transfer_id")
);
--> statement-breakpoint
ALTER TABLE "business_approval_confirmations" ADD CONSTRAINT "business_approval_confirmations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_approval_confirmations" ADD CONSTRAINT "business_approval_confirmations_approver_user_id_users_id_fk" FOREIGN KEY ("approver_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_transaction_requests" ADD CONSTRAINT "business_transaction_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_transaction_requests" ADD CONSTRAINT "business_transaction_requests_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_transaction_requests" ADD CONSTRAINT "business_transaction_requests_initiator_user_id_users_id_fk" FOREIGN KEY ("initiator_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_transaction_requests" ADD CONSTRAINT "business_transaction_requests_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_transaction_requests_waiting" ON "business_transaction_requests" USING btree ("customer_id","status","created_at");