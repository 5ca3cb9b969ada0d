-- "Add money" (issue 15 §2): the payment instructions (api/funding.ts) a user has opened, per account.
CREATE TABLE "payment_instruction_views" (
	"user_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"instruction_id" integer NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_instruction_views_user_id_account_id_instruction_id_pk" PRIMARY KEY("user_id","account_id","instruction_id")
);
--> statement-breakpoint
ALTER TABLE "payment_instruction_views" ADD CONSTRAINT "payment_instruction_views_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;