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
CREATE INDEX "notifications_unread" ON "notifications" USING btree ("customer_id","status");--> statement-breakpoint
-- contracts split
-- Revenue-split contracts executed by the ledger (issue 19 §2; server/modules/contracts/split.ts
-- says which payments are covered and why). One implementation of the rules, used by both posting
-- cores: the TypeScript paths (ledger.ts bookEntry, transfers.service.ts request()) call these
-- functions, and ledger_post_transfer below calls them itself.
--
-- contract_split_targets: the contracts in force that split a credit to an account, in contract id
-- order, each with the beneficiary's account of the credit's currency. Read BEFORE the posting's
-- locks, so the beneficiaries' accounts join the ascending-id lock set (ledger.ts: one order for
-- every path, else two postings can deadlock). In force, by time and not only by the stored
-- status (a job may not have moved it yet): ACTIVE, TERMINATING or SIGNED, active_from <= the
-- payment's time < active_to (null: open-ended). Covered: a credit to an active customer account
-- of the payer that comes from none of the customers in p_from_customers (the debited side: a
-- payment between the payer's own accounts, or from the beneficiary itself, is not split).
-- The beneficiary's account: its lowest-id active payment account (types 1001, 1003) of the
-- credit's currency; none, no split.
CREATE OR REPLACE FUNCTION contract_split_targets(p_account integer, p_from_customers integer[], p_at timestamptz)
RETURNS TABLE (split_contract integer, split_bp integer, split_account integer)
LANGUAGE sql STABLE AS $$
  SELECT c.id, c.percentage_bp, b.account_id
  FROM accounts a
  JOIN contracts c ON c.sender_id = a.customer_id
  CROSS JOIN LATERAL (
    SELECT ba.account_id FROM accounts ba
    WHERE ba.customer_id = c.beneficiary_id AND ba.currency = a.currency AND ba.purpose = 'customer' AND ba.status <> 11 AND ba.type IN (1001, 1003)
    ORDER BY ba.account_id LIMIT 1) b
  WHERE a.account_id = p_account AND a.purpose = 'customer' AND a.status <> 11
    AND c.status IN ('ACTIVE', 'TERMINATING', 'SIGNED')
    AND c.active_from <= p_at AND (c.active_to IS NULL OR c.active_to > p_at)
    AND NOT (a.customer_id = ANY (coalesce(p_from_customers, '{}'::integer[])))
    AND NOT (c.beneficiary_id = ANY (coalesce(p_from_customers, '{}'::integer[])))
  ORDER BY c.id
$$;
--> statement-breakpoint
-- The beneficiary's share (api/contracts.ts splitShare): gross x bp / 10000, half-even.
CREATE OR REPLACE FUNCTION contract_split_share(p_gross bigint, p_bp integer) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  n numeric := p_gross::numeric * p_bp;
  q numeric := div(n, 10000);
  r numeric := n - q * 10000;
BEGIN
  IF p_gross <= 0 THEN RETURN 0; END IF;
  IF 2 * r > 10000 OR (2 * r = 10000 AND mod(q, 2) = 1) THEN q := q + 1; END IF;
  RETURN q::bigint;
END
$$;
--> statement-breakpoint
-- Books the splits of a credit just posted (entry p_source_entry credited p_gross to p_account),
-- for the targets contract_split_targets gave before the locks; the caller holds every account's
-- lock. Each contract, in id order, takes its share of the gross in an entry of its own (kind
-- contract_split, its description naming the contract and both parties): the payer's account
-- debited, the beneficiary's credited, the balances updated as a posting does, a contract_splits
-- row beside it. Never more than the gross in all (over 100 % in force: the later contracts take
-- what remains), never below the payer's floor (the share is part of the credit just received, so
-- only an account already below its floor before the credit could meet it: the floor wins), and a
-- share of 0 books nothing. The beneficiary's credit is never split again (no cascade: these
-- functions are not called for it). Returns the splits booked.
CREATE OR REPLACE FUNCTION contract_split_book(
  p_source_entry bigint, p_account integer, p_gross bigint,
  p_contracts integer[], p_bps integer[], p_beneficiaries integer[], p_at timestamptz
) RETURNS TABLE (split_entry bigint, split_contract integer, split_account integer, split_share bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_payer record;
  v_ben record;
  v_rest bigint := p_gross;
  v_room bigint;
  v_share bigint;
  v_entry bigint;
  i integer;
BEGIN
  IF p_contracts IS NULL OR coalesce(array_length(p_contracts, 1), 0) = 0 OR p_gross IS NULL OR p_gross <= 0 THEN
    RETURN;
  END IF;
  -- the payer's row under the caller's lock, the credit applied
  SELECT a.currency, a.customer_id, a.balance_minor, a.pending_minor, a.balance_min_minor,
    coalesce(nullif(trim(c.business_name), ''), trim(c.first_name || ' ' || c.last_name)) AS name
  INTO v_payer FROM accounts a JOIN customers c ON c.id = a.customer_id WHERE a.account_id = p_account;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  v_room := v_payer.balance_minor - v_payer.pending_minor - v_payer.balance_min_minor;
  FOR i IN 1 .. array_length(p_contracts, 1) LOOP
    SELECT a.status, a.currency, a.customer_id,
      coalesce(nullif(trim(c.business_name), ''), trim(c.first_name || ' ' || c.last_name)) AS name
    INTO v_ben FROM accounts a JOIN customers c ON c.id = a.customer_id
    WHERE a.account_id = p_beneficiaries[i] AND a.purpose = 'customer';
    -- closed since the targets were read: no split
    CONTINUE WHEN NOT FOUND OR v_ben.status = 11 OR v_ben.currency <> v_payer.currency;
    v_share := least(contract_split_share(p_gross, p_bps[i]), v_rest, greatest(v_room, 0));
    CONTINUE WHEN v_share <= 0;
    v_entry := nextval('journal_entries_id_seq');
    INSERT INTO journal_entries (id, kind, idempotency_key, transfer_id, description)
    VALUES (v_entry, 'contract_split', 'contract-split:' || p_contracts[i] || ':' || p_source_entry, NULL,
      jsonb_build_object('contractId', p_contracts[i], 'sourceEntryId', p_source_entry,
        'payerCustomerId', v_payer.customer_id, 'payerName', v_payer.name,
        'beneficiaryCustomerId', v_ben.customer_id, 'beneficiaryName', v_ben.name));
    INSERT INTO journal_legs (entry_id, account_id, currency, amount_minor)
    VALUES (v_entry, p_account, v_payer.currency, -v_share), (v_entry, p_beneficiaries[i], v_payer.currency, v_share);
    UPDATE accounts a SET balance_minor = a.balance_minor + CASE WHEN a.account_id = p_account THEN -v_share ELSE v_share END
    WHERE a.account_id IN (p_account, p_beneficiaries[i]);
    INSERT INTO contract_splits (contract_id, source_entry_id, entry_id, payer_account_id, beneficiary_account_id, currency, gross_minor, share_minor, created_at)
    VALUES (p_contracts[i], p_source_entry, v_entry, p_account, p_beneficiaries[i], v_payer.currency, p_gross, v_share, p_at);
    v_rest := v_rest - v_share;
    v_room := v_room - v_share;
    split_entry := v_entry; split_contract := p_contracts[i]; split_account := p_beneficiaries[i]; split_share := v_share;
    RETURN NEXT;
  END LOOP;
END
$$;
--> statement-breakpoint
-- The posting core of 0010 (ledger_post_transfer) with the split: a payment from another customer
-- locks the beneficiaries' accounts in the same ascending order and books the splits after the
-- payment, before the day's counter (still last). Own-account transfers read nothing more.
CREATE OR REPLACE FUNCTION ledger_post_transfer(
  p_transfer_id bigint, p_entry_id bigint,
  p_kind text, p_customer_id integer, p_user_id integer, p_from integer, p_to integer, p_to_customer_id integer,
  p_currency text, p_amount bigint, p_to_amount bigint, p_fee bigint, p_fee_account integer, p_rate text,
  p_daily_minor numeric, p_exponent integer, p_param text,
  p_created_at timestamptz, p_expires_at timestamptz, p_day date,
  p_to_email text DEFAULT NULL, p_note text DEFAULT NULL, p_reference text DEFAULT NULL, p_template_name text DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_total bigint := p_amount + p_fee;
  r record;
  v_src_found boolean := false;
  v_src_status integer;
  v_src_balance bigint;
  v_src_pending bigint;
  v_src_min bigint;
  v_dst_found boolean := false;
  v_dst_status integer;
  v_dst_balance bigint;
  v_dst_pending bigint;
  v_dst_min bigint;
  v_refusal jsonb;
  v_used numeric;
  v_split_contracts integer[];
  v_split_bps integer[];
  v_split_accounts integer[];
BEGIN
  IF p_fee > 0 AND p_fee_account IS NULL THEN
    RAISE EXCEPTION 'no provider fee account in %', p_currency;
  END IF;
  -- A payment from another customer: the payee's revenue-split contracts in force (contracts
  -- split, 0024), read before the locks so their beneficiaries' accounts are locked with the others.
  -- The platform's own-account transfers (ledger_transfer_now, the batch) never get here.
  IF p_to_customer_id IS DISTINCT FROM p_customer_id THEN
    SELECT array_agg(x.split_contract ORDER BY x.split_contract), array_agg(x.split_bp ORDER BY x.split_contract), array_agg(x.split_account ORDER BY x.split_contract)
    INTO v_split_contracts, v_split_bps, v_split_accounts
    FROM contract_split_targets(p_to, ARRAY[p_customer_id], p_created_at) AS x;
  END IF;
  -- The customer accounts in ascending id order, their newest rows (ledger.ts lockAccounts).
  FOR r IN
    SELECT account_id, status, balance_minor, pending_minor, balance_min_minor FROM accounts
    WHERE account_id = ANY (ARRAY[p_from, p_to] || coalesce(v_split_accounts, '{}'::integer[])) AND purpose = 'customer'
    ORDER BY account_id FOR NO KEY UPDATE
  LOOP
    IF r.account_id = p_from THEN
      v_src_found := true; v_src_status := r.status; v_src_balance := r.balance_minor; v_src_pending := r.pending_minor; v_src_min := r.balance_min_minor;
    ELSIF r.account_id = p_to THEN
      v_dst_found := true; v_dst_status := r.status; v_dst_balance := r.balance_minor; v_dst_pending := r.pending_minor; v_dst_min := r.balance_min_minor;
    END IF;
  END LOOP;
  IF NOT v_src_found OR v_src_status = 11 OR (v_dst_found AND v_dst_status = 11) THEN
    v_refusal := jsonb_build_object('code', 'CA');
  ELSIF v_src_balance - v_src_pending - v_total < v_src_min THEN
    v_refusal := jsonb_build_object('code', 'VF', 'vf', 'balanceExceeded', 'param', p_param);
  ELSIF NOT v_dst_found THEN
    RAISE EXCEPTION 'unknown account %', p_to;
  ELSIF v_dst_balance + p_to_amount - v_dst_pending < v_dst_min THEN
    -- planEntry's InsufficientFundsError on a destination already below its floor
    PERFORM ledger_refuse('insufficient', jsonb_build_object('accountId', p_to));
  END IF;
  IF v_refusal IS NULL THEN
    INSERT INTO transfers (id, kind, status, customer_id, user_id, from_account_id, to_account_id, to_customer_id, from_currency, to_currency,
      amount_minor, to_amount_minor, fee_minor, rate, approve_type, to_email, note, reference, template_name, schedule_id, entry_id,
      expires_at, created_at, updated_at)
    VALUES (p_transfer_id, p_kind, 'posted', p_customer_id, p_user_id, p_from, p_to, p_to_customer_id, p_currency, p_currency,
      p_amount, p_to_amount, p_fee, p_rate, 'none', p_to_email, p_note, p_reference, p_template_name, NULL, p_entry_id,
      p_expires_at, p_created_at, p_created_at);
    INSERT INTO journal_entries (id, kind, idempotency_key, transfer_id, description)
    VALUES (p_entry_id, 'transfer', 'transfer:' || p_transfer_id, p_transfer_id, jsonb_build_object('kind', p_kind, 'transferId', p_transfer_id));
    INSERT INTO journal_legs (entry_id, account_id, currency, amount_minor)
    SELECT p_entry_id, v.account_id, p_currency, v.amount
    FROM (VALUES (p_from, -v_total), (p_to, p_to_amount), (p_fee_account, p_fee)) AS v(account_id, amount)
    WHERE v.amount <> 0;

    UPDATE accounts SET balance_minor = balance_minor + CASE WHEN account_id = p_from THEN -v_total ELSE p_to_amount END
    WHERE account_id IN (p_from, p_to);
    IF v_split_contracts IS NOT NULL THEN
      PERFORM 1 FROM contract_split_book(p_entry_id, p_to, p_to_amount, v_split_contracts, v_split_bps, v_split_accounts, p_created_at);
    END IF;
  END IF;

  -- The day's counter last (its lock held to commit only); its answer comes before any other
  -- refusal found under the locks, as in the service. ledger_count_daily counts nothing when it
  -- refuses (the day's total with this amount, over the limit).
  v_used := ledger_count_daily(p_customer_id, p_kind, p_currency, p_day, p_amount, p_daily_minor);
  IF v_used IS NOT NULL THEN
    PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'dailyLimit', 'param', p_param,
      'left', ledger_minor_to_decimal(greatest(coalesce(p_daily_minor, 99999999999999999999999) - (v_used - p_amount), 0), p_exponent), 'currency', p_currency));
  END IF;
  IF v_refusal IS NOT NULL THEN
    PERFORM ledger_refuse(v_refusal ->> 'code', v_refusal);
  END IF;
END
$$;