-- Payment rails (issue 15 §1-§2): each payout's or incoming payment's instruction with its status
-- on the rail, the status events applied to it (each once: the key is the instruction and the
-- event), and the provider's clearing account of each rail and currency. The job queue (pg-boss)
-- makes its own schema, pgboss, when the platform starts (server/db/job-queue.ts).
CREATE TABLE "rail_clearing_accounts" (
	"rail" text NOT NULL,
	"currency" text NOT NULL,
	"account_id" integer NOT NULL,
	CONSTRAINT "rail_clearing_accounts_rail_currency_pk" PRIMARY KEY("rail","currency")
);
--> statement-breakpoint
CREATE TABLE "rail_events" (
	"instruction_id" bigint NOT NULL,
	"type" text NOT NULL,
	"reason_code" text,
	"entry_id" bigint,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rail_events_instruction_id_type_pk" PRIMARY KEY("instruction_id","type")
);
--> statement-breakpoint
CREATE TABLE "rail_instructions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rail" text NOT NULL,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"transfer_id" bigint,
	"account_id" integer,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"beneficiary" jsonb NOT NULL,
	"reference" text,
	"adapter" text,
	"network_ref" text,
	"reason_code" text,
	"fee_refunded_minor" bigint,
	"submit_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rail_instructions_positive" CHECK ("rail_instructions"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "rail_clearing_accounts" ADD CONSTRAINT "rail_clearing_accounts_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rail_events" ADD CONSTRAINT "rail_events_instruction_id_rail_instructions_id_fk" FOREIGN KEY ("instruction_id") REFERENCES "public"."rail_instructions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rail_instructions" ADD CONSTRAINT "rail_instructions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rail_instructions" ADD CONSTRAINT "rail_instructions_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rail_instructions_transfer" ON "rail_instructions" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "rail_instructions_account" ON "rail_instructions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "rail_instructions_status" ON "rail_instructions" USING btree ("status");