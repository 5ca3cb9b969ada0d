CREATE TABLE "tax_certifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"representative_id" integer,
	"kind" text NOT NULL,
	"answers" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_certifications_representative_personal" CHECK ("tax_certifications"."representative_id" is null or "tax_certifications"."kind" = 'personal')
);
--> statement-breakpoint
CREATE TABLE "esign_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"envelope_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"token_hash" text NOT NULL,
	"unsigned_pdf" "bytea" NOT NULL,
	"unsigned_sha256" text NOT NULL,
	"signed_pdf" "bytea",
	"signed_sha256" text,
	"signed_at" timestamp with time zone,
	"signer_typed_name" text,
	"signature_strokes" jsonb,
	"signer_ip" text,
	"signer_user_agent" text,
	"document_id" integer,
	CONSTRAINT "esign_documents_signed_whole" CHECK (("esign_documents"."signed_at" is null) = ("esign_documents"."signed_pdf" is null))
);
--> statement-breakpoint
CREATE TABLE "esign_envelopes" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"purpose" text NOT NULL,
	"adapter" text NOT NULL,
	"customer_id" integer NOT NULL,
	"representative_id" integer,
	"created_by_user_id" integer,
	"signer_name" text NOT NULL,
	"signer_email" text,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"return_path" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tax_certifications" ADD CONSTRAINT "tax_certifications_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_certifications" ADD CONSTRAINT "tax_certifications_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_certifications" ADD CONSTRAINT "tax_certifications_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_envelope_id_esign_envelopes_id_fk" FOREIGN KEY ("envelope_id") REFERENCES "public"."esign_envelopes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_documents" ADD CONSTRAINT "esign_documents_document_id_customer_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."customer_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_envelopes" ADD CONSTRAINT "esign_envelopes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_envelopes" ADD CONSTRAINT "esign_envelopes_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "esign_envelopes" ADD CONSTRAINT "esign_envelopes_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_certifications_own" ON "tax_certifications" USING btree ("customer_id","kind") WHERE "tax_certifications"."representative_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_certifications_representative" ON "tax_certifications" USING btree ("representative_id") WHERE "tax_certifications"."representative_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "esign_documents_token" ON "esign_documents" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "esign_documents_position" ON "esign_documents" USING btree ("envelope_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "esign_envelopes_client" ON "esign_envelopes" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "esign_envelopes_customer" ON "esign_envelopes" USING btree ("customer_id","purpose");