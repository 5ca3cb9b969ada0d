-- Card BINs the provider does not pay out to (document 2 §7 blockedBinList; issue 15 item 3).
CREATE TABLE "blocked_card_bins" (
	"bin" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_card_bins_digits" CHECK ("blocked_card_bins"."bin" ~ '^([0-9]{6}|[0-9]{8})$')
);
