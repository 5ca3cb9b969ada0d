CREATE TABLE "business_companies" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"trading_name" text,
	"registration_number" text,
	"registration_date" date,
	"business_tax_id" text,
	"website" text,
	"description" text,
	"email" text,
	"financial_institution" text,
	"financial_detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"due_diligence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"additional_question_answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_representative_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"representative_id" integer NOT NULL,
	"address1" text NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"city" text NOT NULL,
	"postal_code" text NOT NULL,
	"country_code" text NOT NULL,
	"state_code" text,
	"state_name" text,
	"status" text DEFAULT 'unconfirmed' NOT NULL,
	"customer_confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "business_representative_documents" (
	"representative_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	CONSTRAINT "business_representative_documents_representative_id_document_id_pk" PRIMARY KEY("representative_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "business_representatives" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"position_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"parent_id" integer,
	"share_hundredths" integer,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"birth_day" date,
	"company_name" text DEFAULT '' NOT NULL,
	"registration_number" text,
	"country_code" text,
	"email" text,
	"phone_country_code" text,
	"phone" text,
	"phone_confirmed" boolean DEFAULT false NOT NULL,
	"tax_id" text,
	"source_of_funds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"identity_status" text DEFAULT 'none' NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "business_representatives_share" CHECK ("business_representatives"."share_hundredths" is null or "business_representatives"."share_hundredths" between 1 and 10000),
	CONSTRAINT "business_representatives_email_lower" CHECK ("business_representatives"."email" is null or "business_representatives"."email" = lower("business_representatives"."email"))
);
--> statement-breakpoint
ALTER TABLE "business_companies" ADD CONSTRAINT "business_companies_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representative_addresses" ADD CONSTRAINT "business_representative_addresses_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representative_documents" ADD CONSTRAINT "business_representative_documents_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representative_documents" ADD CONSTRAINT "business_representative_documents_document_id_customer_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."customer_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representatives" ADD CONSTRAINT "business_representatives_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_representatives" ADD CONSTRAINT "business_representatives_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_representative_addresses_rep" ON "business_representative_addresses" USING btree ("representative_id");--> statement-breakpoint
CREATE INDEX "business_representatives_customer" ON "business_representatives" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "business_representatives_parent" ON "business_representatives" USING btree ("parent_id");