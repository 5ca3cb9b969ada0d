CREATE TABLE "card_authorizations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"card_account_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"merchant_name" text NOT NULL,
	"merchant_category_code" text NOT NULL,
	"merchant_country_code" text NOT NULL,
	"status" text NOT NULL,
	"decline_reason" text,
	"network_ref" text NOT NULL,
	"entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_authorizations_amount" CHECK ("card_authorizations"."amount_minor" > 0),
	CONSTRAINT "card_authorizations_declined" CHECK (("card_authorizations"."status" = 'declined') = ("card_authorizations"."decline_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "card_issuer_sim_cards" (
	"issuer_ref" text PRIMARY KEY NOT NULL,
	"pan_hmac" text NOT NULL,
	"pan_sealed" text NOT NULL,
	"cvv_sealed" text NOT NULL,
	"pin_sealed" text,
	"expiry_month" smallint NOT NULL,
	"expiry_year" smallint NOT NULL,
	"stage" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_reveals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"card_account_id" integer NOT NULL,
	"reveal" text NOT NULL,
	"method" text NOT NULL,
	"code_hash" text,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_scheme_accounts" (
	"currency" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"is_virtual" boolean NOT NULL,
	"alias_name" text,
	"expiry_month" smallint NOT NULL,
	"expiry_year" smallint NOT NULL,
	"bin" text NOT NULL,
	"last4" text NOT NULL,
	"issuer_ref" text NOT NULL,
	"fee_account_id" integer NOT NULL,
	"address_id" integer,
	"shipping" text,
	"fee_transfer_id" bigint,
	"reissued_from_account_id" integer,
	"reissued_to_account_id" integer,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cards_bin" CHECK ("cards"."bin" ~ '^[0-9]{6}$'),
	CONSTRAINT "cards_last4" CHECK ("cards"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "cards_expiry_month" CHECK ("cards"."expiry_month" between 1 and 12)
);
--> statement-breakpoint
ALTER TABLE "card_authorizations" ADD CONSTRAINT "card_authorizations_card_account_id_accounts_account_id_fk" FOREIGN KEY ("card_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_authorizations" ADD CONSTRAINT "card_authorizations_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_card_account_id_accounts_account_id_fk" FOREIGN KEY ("card_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_scheme_accounts" ADD CONSTRAINT "card_scheme_accounts_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_account_id_accounts_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_fee_account_id_accounts_account_id_fk" FOREIGN KEY ("fee_account_id") REFERENCES "public"."accounts"("account_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_authorizations_network_ref" ON "card_authorizations" USING btree ("network_ref");--> statement-breakpoint
CREATE INDEX "card_authorizations_account" ON "card_authorizations" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "card_authorizations_card" ON "card_authorizations" USING btree ("card_account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_issuer_sim_cards_pan" ON "card_issuer_sim_cards" USING btree ("pan_hmac");--> statement-breakpoint
CREATE INDEX "card_reveals_user" ON "card_reveals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_issuer_ref" ON "cards" USING btree ("issuer_ref");--> statement-breakpoint
CREATE INDEX "cards_fee_account" ON "cards" USING btree ("fee_account_id");