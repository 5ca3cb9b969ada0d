CREATE TABLE "business_document_requirements" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"representative_id" integer,
	"category_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_registration_drafts" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"device_secret_hash" text NOT NULL,
	"version" text NOT NULL,
	"data" jsonb NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "business_registration_drafts_email_lower" CHECK ("business_registration_drafts"."email" = lower("business_registration_drafts"."email"))
);
--> statement-breakpoint
ALTER TABLE "business_document_requirements" ADD CONSTRAINT "business_document_requirements_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_document_requirements" ADD CONSTRAINT "business_document_requirements_representative_id_business_representatives_id_fk" FOREIGN KEY ("representative_id") REFERENCES "public"."business_representatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_document_requirements_customer" ON "business_document_requirements" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_document_requirements_one" ON "business_document_requirements" USING btree ("customer_id","category_id",coalesce("representative_id", 0));--> statement-breakpoint
CREATE UNIQUE INDEX "business_registration_drafts_key" ON "business_registration_drafts" USING btree ("email","device_secret_hash");--> statement-breakpoint
CREATE INDEX "business_registration_drafts_expiry" ON "business_registration_drafts" USING btree ("expires_at");