CREATE TABLE "transfer_daily_usage" (
	"customer_id" integer NOT NULL,
	"operation" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"used_minor" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transfer_daily_usage_customer_id_operation_currency_day_pk" PRIMARY KEY("customer_id","operation","currency","day")
);
--> statement-breakpoint
ALTER TABLE "transfer_daily_usage" ADD CONSTRAINT "transfer_daily_usage_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The counter of the transfers made before it existed: pending and posted, per UTC day of creation.
INSERT INTO "transfer_daily_usage" ("customer_id", "operation", "currency", "day", "used_minor")
SELECT "customer_id", "kind", "from_currency", ("created_at" AT TIME ZONE 'UTC')::date, sum("amount_minor")
FROM "transfers" WHERE "status" IN ('pending', 'posted')
GROUP BY 1, 2, 3, 4;
