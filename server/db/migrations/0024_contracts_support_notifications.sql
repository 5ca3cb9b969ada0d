CREATE TABLE "contract_splits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" integer NOT NULL,
	"source_entry_id" bigint NOT NULL,
	"entry_id" bigint NOT NULL,
	"payer_account_id" integer NOT NULL,
	"beneficiary_account_id" integer NOT NULL,
	"currency" text NOT NULL,
	"gross_minor" bigint NOT NULL,
	"share_minor" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contract_splits_share" CHECK ("contract_splits"."share_minor" >= 0 and "contract_splits"."share_minor" <= "contract_splits"."gross_minor")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"initiator_id" integer NOT NULL,
	"created_by_user_id" integer,
	"sender_id" integer NOT NULL,
	"sender_signer_name" text NOT NULL,
	"sender_obligations" jsonb NOT NULL,
	"beneficiary_id" integer NOT NULL,
	"beneficiary_signer_name" text NOT NULL,
	"beneficiary_obligations" jsonb NOT NULL,
	"percentage_bp" integer NOT NULL,
	"note" text,
	"status" text NOT NULL,
	"identification_status" text DEFAULT 'NEW' NOT NULL,
	"active_from" timestamp with time zone NOT NULL,
	"active_to" timestamp with time zone,
	"sender_signed_at" timestamp with time zone,
	"sender_signed_document_id" integer,
	"beneficiary_signed_at" timestamp with time zone,
	"beneficiary_signed_document_id" integer,
	"terminated_by" integer,
	"terminate_requested_at" timestamp with time zone,
	"terminated_at" timestamp with time zone,
	"terminate_note" text,
	"closed_by" integer,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "contracts_percentage" CHECK ("contracts"."percentage_bp" > 0 and "contracts"."percentage_bp" <= 10000),
	CONSTRAINT "contracts_parties" CHECK ("contracts"."sender_id" <> "contracts"."beneficiary_id")
);
--> statement-breakpoint
CREATE TABLE "support_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer,
	"uploaded_by_user_id" integer NOT NULL,
	"thread_id" integer,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" "bytea" NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_threads" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"author_kind" text NOT NULL,
	"author_user_id" integer,
	"visibility" text DEFAULT 'public' NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "support_threads_internal_agent" CHECK ("support_threads"."visibility" = 'public' or "support_threads"."author_kind" = 'agent')
);
--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_number" text NOT NULL,
	"provider" text NOT NULL,
	"customer_id" integer NOT NULL,
	"created_by_user_id" integer,
	"subject" text NOT NULL,
	"state" text NOT NULL,
	"assigned_agent_user_id" integer,
	"customer_read_at" timestamp with time zone,
	"last_thread_at" timestamp with time zone,
	"last_thread_to" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "announcement_reads" (
	"announcement_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"choice" text,
	"choice_at" timestamp with time zone,
	CONSTRAINT "announcement_reads_announcement_id_user_id_pk" PRIMARY KEY("announcement_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" serial PRIMARY KEY NOT NULL,
	"texts" jsonb NOT NULL,
	"audience" text DEFAULT 'all' NOT NULL,
	"requires_choice" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" integer NOT NULL,
	"group" text NOT NULL,
	"identified" text NOT NULL,
	"value" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_settings_user_id_identified_pk" PRIMARY KEY("user_id","identified")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer,
	"type" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'unread' NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_splits" ADD CONSTRAINT "contract_splits_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_splits" ADD CONSTRAINT "contract_splits_source_entry_id_journal_entries_id_fk" FOREIGN KEY ("source_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_splits" ADD CONSTRAINT "contract_splits_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_splits" ADD CONSTRAINT "contract_splits_payer_account_id_accounts_account_id_fk" FOREIGN KEY ("payer_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_splits" ADD CONSTRAINT "contract_splits_beneficiary_account_id_accounts_account_id_fk" FOREIGN KEY ("beneficiary_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_company_id_customers_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_initiator_id_customers_id_fk" FOREIGN KEY ("initiator_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_sender_id_customers_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_beneficiary_id_customers_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_sender_signed_document_id_esign_documents_id_fk" FOREIGN KEY ("sender_signed_document_id") REFERENCES "public"."esign_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_beneficiary_signed_document_id_esign_documents_id_fk" FOREIGN KEY ("beneficiary_signed_document_id") REFERENCES "public"."esign_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_terminated_by_customers_id_fk" FOREIGN KEY ("terminated_by") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_closed_by_customers_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_thread_id_support_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."support_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_threads" ADD CONSTRAINT "support_threads_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_threads" ADD CONSTRAINT "support_threads_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_assigned_agent_user_id_users_id_fk" FOREIGN KEY ("assigned_agent_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_splits_source" ON "contract_splits" USING btree ("contract_id","source_entry_id");--> statement-breakpoint
CREATE INDEX "contract_splits_entry" ON "contract_splits" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "contracts_sender" ON "contracts" USING btree ("sender_id","status");--> statement-breakpoint
CREATE INDEX "contracts_beneficiary" ON "contracts" USING btree ("beneficiary_id","status");--> statement-breakpoint
CREATE INDEX "contracts_company" ON "contracts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "support_attachments_thread" ON "support_attachments" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "support_attachments_uploader" ON "support_attachments" USING btree ("uploaded_by_user_id","created_at");--> statement-breakpoint
CREATE INDEX "support_threads_ticket" ON "support_threads" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "support_tickets_number" ON "support_tickets" USING btree ("ticket_number");--> statement-breakpoint
CREATE INDEX "support_tickets_customer" ON "support_tickets" USING btree ("customer_id","updated_at");--> statement-breakpoint
CREATE INDEX "support_tickets_queue" ON "support_tickets" USING btree ("provider","state","updated_at");--> statement-breakpoint
CREATE INDEX "notifications_customer" ON "notifications" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_unread" ON "notifications" USING btree ("customer_id","status");