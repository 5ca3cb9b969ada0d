-- The daily limit's counter in shards (issue 12 goal 3, second round): one customer's concurrent
-- transfers of a kind and currency no longer queue on one row through each commit's fsync.
--
-- A customer-day's counter is 16 rows (the platform's pool), shard 0..15; the day's total is the sum of
-- their used_minor. Escrow: under the limit recorded in limit_minor, the rows' allowance_minor sum to
-- that limit and no row's used_minor exceeds its allowance (CHECK), so the total never exceeds it.
-- ledger_count_daily counts a transfer in the first shard, not locked by another transaction, whose
-- allowance under the request's limit has room (SKIP LOCKED: it never waits there); when all those
-- with room are held, it waits for one of them (random); when none has room,
-- it creates the day's missing shards, locks all of them in shard order, checks the exact total
-- against the limit and re-divides what is left (an equal share each, the rest to the shard it
-- counts in). A refusal counts nothing and answers the day's total with the amount (over the limit),
-- so the amount left is exact; a transfer counted answers NULL. ledger_give_back_daily (a voided
-- pending transfer) locks the day's shards in order and takes the amount back from them.
-- Lock order unchanged: the counter last; its shards in shard order.
--
-- The existing counters become shard 0 with no division (limit_minor NULL): their next transfer
-- divides them.
ALTER TABLE "transfer_daily_usage" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_daily_usage" ADD COLUMN "allowance_minor" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_daily_usage" ADD COLUMN "limit_minor" numeric;--> statement-breakpoint
ALTER TABLE "transfer_daily_usage" DROP CONSTRAINT "transfer_daily_usage_customer_id_operation_currency_day_pk";--> statement-breakpoint
ALTER TABLE "transfer_daily_usage" ADD CONSTRAINT "transfer_daily_usage_shard_pk" PRIMARY KEY("customer_id","operation","currency","day","shard");--> statement-breakpoint
ALTER TABLE "transfer_daily_usage" ADD CONSTRAINT "transfer_daily_usage_within_allowance" CHECK ("transfer_daily_usage"."used_minor" <= "transfer_daily_usage"."allowance_minor" or "transfer_daily_usage"."limit_minor" is null);--> statement-breakpoint
-- Counts a transfer's amount on its day under the daily limit p_limit (NULL: no limit, as the
-- platform's NO_LIMITS). NULL when counted; the day's total with the amount when refused.
CREATE OR REPLACE FUNCTION ledger_count_daily(p_customer integer, p_kind text, p_currency text, p_day date, p_amount bigint, p_limit numeric) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
  k constant integer := 16;
  v_limit numeric := coalesce(p_limit, 99999999999999999999999);
  v_shard integer;
  v_total numeric;
  v_left numeric;
  v_each numeric;
BEGIN
  -- The attempts in a subtransaction: an attempt that met a row changed under it (no room any
  -- more) keeps that row locked; rolled back, it holds none when it goes on to lock all the shards
  -- in order (else two such requests could deadlock).
  BEGIN
    -- A shard with room under this limit that no other transaction holds.
    UPDATE transfer_daily_usage u SET used_minor = u.used_minor + p_amount
    WHERE u.customer_id = p_customer AND u.operation = p_kind AND u.currency = p_currency AND u.day = p_day
      AND u.shard = (SELECT s.shard FROM transfer_daily_usage s
        WHERE s.customer_id = p_customer AND s.operation = p_kind AND s.currency = p_currency AND s.day = p_day
          AND s.limit_minor = v_limit AND s.used_minor + p_amount <= s.allowance_minor
        ORDER BY s.shard LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING u.shard INTO v_shard;
    IF FOUND THEN
      RETURN NULL;
    END IF;
    -- Every shard with room held by another transaction: wait for one of them (a random one) only.
    UPDATE transfer_daily_usage u SET used_minor = u.used_minor + p_amount
    WHERE u.customer_id = p_customer AND u.operation = p_kind AND u.currency = p_currency AND u.day = p_day
      AND u.shard = (SELECT s.shard FROM transfer_daily_usage s
        WHERE s.customer_id = p_customer AND s.operation = p_kind AND s.currency = p_currency AND s.day = p_day
          AND s.limit_minor = v_limit AND s.used_minor + p_amount <= s.allowance_minor
        ORDER BY random() LIMIT 1)
      AND u.limit_minor = v_limit AND u.used_minor + p_amount <= u.allowance_minor
    RETURNING u.shard INTO v_shard;
    IF FOUND THEN
      RETURN NULL;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'WL002', MESSAGE = 'no shard with room';
  EXCEPTION WHEN SQLSTATE 'WL002' THEN
    NULL;
  END;

  -- None: all the day's shards, locked in shard order, the exact total, the rest re-divided.
  INSERT INTO transfer_daily_usage (customer_id, operation, currency, day, shard, used_minor, allowance_minor, limit_minor)
  SELECT p_customer, p_kind, p_currency, p_day, g.shard, 0, 0, NULL FROM generate_series(0, k - 1) AS g(shard)
  ON CONFLICT DO NOTHING;
  SELECT sum(x.used_minor) INTO v_total FROM (
    SELECT s.used_minor FROM transfer_daily_usage s
    WHERE s.customer_id = p_customer AND s.operation = p_kind AND s.currency = p_currency AND s.day = p_day
    ORDER BY s.shard FOR NO KEY UPDATE) AS x;
  IF v_total + p_amount > v_limit THEN
    RETURN v_total + p_amount;
  END IF;
  v_left := v_limit - v_total - p_amount;
  v_each := floor(v_left / k);
  v_shard := floor(random() * k)::integer;
  UPDATE transfer_daily_usage s
  SET used_minor = s.used_minor + CASE WHEN s.shard = v_shard THEN p_amount ELSE 0 END,
    allowance_minor = s.used_minor + v_each + CASE WHEN s.shard = v_shard THEN p_amount + (v_left - v_each * k) ELSE 0 END,
    limit_minor = v_limit
  WHERE s.customer_id = p_customer AND s.operation = p_kind AND s.currency = p_currency AND s.day = p_day;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A voided pending transfer's amount taken back from its day's shards (locked in shard order).
CREATE OR REPLACE FUNCTION ledger_give_back_daily(p_customer integer, p_kind text, p_currency text, p_day date, p_amount bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_rest bigint := p_amount;
  v_take bigint;
  r record;
BEGIN
  FOR r IN
    SELECT s.shard, s.used_minor FROM transfer_daily_usage s
    WHERE s.customer_id = p_customer AND s.operation = p_kind AND s.currency = p_currency AND s.day = p_day
    ORDER BY s.shard FOR NO KEY UPDATE
  LOOP
    EXIT WHEN v_rest <= 0;
    v_take := least(r.used_minor, v_rest);
    IF v_take > 0 THEN
      UPDATE transfer_daily_usage SET used_minor = used_minor - v_take
      WHERE customer_id = p_customer AND operation = p_kind AND currency = p_currency AND day = p_day AND shard = r.shard;
      v_rest := v_rest - v_take;
    END IF;
  END LOOP;
  IF v_rest <> 0 THEN
    RAISE EXCEPTION 'daily usage of customer % % % on %: % to give back, % counted less', p_customer, p_kind, p_currency, p_day, p_amount, v_rest;
  END IF;
END
$$;
--> statement-breakpoint
-- The posting core of 0009 with the day's counter counted by ledger_count_daily.
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
BEGIN
  IF p_fee > 0 AND p_fee_account IS NULL THEN
    RAISE EXCEPTION 'no provider fee account in %', p_currency;
  END IF;
  -- The customer accounts in ascending id order, their newest rows (ledger.ts lockAccounts).
  FOR r IN
    SELECT account_id, status, balance_minor, pending_minor, balance_min_minor FROM accounts
    WHERE account_id IN (p_from, p_to) AND purpose = 'customer'
    ORDER BY account_id FOR NO KEY UPDATE
  LOOP
    IF r.account_id = p_from THEN
      v_src_found := true; v_src_status := r.status; v_src_balance := r.balance_minor; v_src_pending := r.pending_minor; v_src_min := r.balance_min_minor;
    ELSE
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
