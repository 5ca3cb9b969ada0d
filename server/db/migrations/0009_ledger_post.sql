-- The ledger's hot path in one round trip (issue 12 goal 3): a transfer request that is posted at
-- once (approve mode none) runs as ONE statement, `select ledger_transfer_now($1::jsonb)`, in its
-- own transaction, instead of BEGIN + five statements + COMMIT from the platform.
--
-- It answers what the platform's transaction answered (transfers.service.ts request() in
-- method-endpoint.ts's transaction): a key stored before replays its answer (or VF when it was
-- another request); the context (accounts, user, approve mode, fee rule, limits, the provider's fee
-- account, the permission flags) is checked in the order the service checks it; then the key is
-- stored with its answer and the audit entry written; then the customer accounts are locked in
-- ascending id order (FOR NO KEY UPDATE, as ledger.ts), checked (closed, the floor), the transfer,
-- its journal entry and legs written, the balances updated, and the day's limit counter counted
-- last (its lock held to the commit only). Lock order as before: the key, the accounts by id, the
-- counter.
--
-- A refusal raises SQLSTATE WL001 with a JSON message ({"code": ..., ...}): the statement, and so
-- its transaction, rolls back whatever it wrote, and the service maps the code to the answer
-- request() gives. A request the function does not post itself (another approve mode, a
-- conversion between currencies; the platform does not call it for p2p or recurring ones) answers
-- {"fallback": true} having written nothing, and the platform runs its transactional path. A key
-- stored by a concurrent duplicate raises 40001, which the endpoint re-runs (and the re-run replays).
--
-- Amounts are bigint minor units; the answer's decimals use the exponent the platform passes (the
-- one of the request's currency, server/modules/accounts/money.ts), so the stored answer is the
-- platform's. Times come from the platform's clock.
--
-- Later transfer kinds: ledger_transfer_now resolves the destination and the quote of its kind;
-- ledger_post_transfer (rows, ordered locks, floor, balances, counter) is the shared posting core.

CREATE OR REPLACE FUNCTION ledger_minor_to_decimal(amount numeric, exponent integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  select round(amount / (10::numeric ^ exponent), exponent)::text
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_refuse(code text, details jsonb DEFAULT '{}'::jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'WL001', MESSAGE = (jsonb_build_object('code', code) || details)::text;
END
$$;
--> statement-breakpoint
-- The fee of an amount by a rule (fees.ts computeFee): fixed + basis points half-even, clamped.
CREATE OR REPLACE FUNCTION ledger_fee(amount bigint, fixed_minor bigint, basis_points integer, min_minor bigint, max_minor bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  n numeric := amount::numeric * basis_points;
  q numeric := div(n, 10000);
  r numeric := n - q * 10000;
  fee numeric;
BEGIN
  IF fixed_minor IS NULL OR amount <= 0 THEN RETURN 0; END IF;
  IF 2 * r > 10000 OR (2 * r = 10000 AND mod(q, 2) = 1) THEN q := q + 1; END IF;
  fee := fixed_minor + q;
  IF fee < min_minor THEN fee := min_minor; END IF;
  IF max_minor IS NOT NULL AND fee > max_minor THEN fee := max_minor; END IF;
  RETURN fee::bigint;
END
$$;
--> statement-breakpoint
-- The posting core: a customer-to-customer transfer of one currency posted now. The caller has
-- checked the request, stored the key and the audit entry and allocated the transfer's id. The
-- customer accounts are locked first, in ascending id order, and checked (closed, the floor); then
-- the transfer, its entry and legs are written, the balances updated and the day's counter counted
-- last. The rows referencing the accounts are written under their lock on purpose: a foreign-key
-- check takes FOR KEY SHARE on the account row, and taken by other transactions while one holds
-- the row it makes every version of a busy row carry a MultiXact (measured: a hot account's lookups
-- and locks several times slower); under the transaction's own lock it adds nothing. A refusal
-- raises (all rolled back).
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
  -- refusal found under the locks, as in the service.
  INSERT INTO transfer_daily_usage (customer_id, operation, currency, day, used_minor)
  VALUES (p_customer_id, p_kind, p_currency, p_day, p_amount)
  ON CONFLICT (customer_id, operation, currency, day) DO UPDATE SET used_minor = transfer_daily_usage.used_minor + excluded.used_minor
  RETURNING used_minor INTO v_used;
  IF p_daily_minor IS NOT NULL AND v_used > p_daily_minor THEN
    PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'dailyLimit', 'param', p_param,
      'left', ledger_minor_to_decimal(greatest(p_daily_minor - (v_used - p_amount), 0), p_exponent), 'currency', p_currency));
  END IF;
  IF v_refusal IS NOT NULL THEN
    PERFORM ledger_refuse(v_refusal ->> 'code', v_refusal);
  END IF;
END
$$;
--> statement-breakpoint
-- A transfer request answered in one statement. req (jsonb): userId, customerId, method, key,
-- requestHash, kind ('betweenAccounts'), from, to, currency (the amount's), amountMinor (text, null
-- when it has too many decimals for its currency), exponent (the currency's), requiredFlags, params
-- {to, amount, currency}, createdAt, expiresAt (ISO), day (UTC date).
-- Returns {"answer": ...} (posted now), {"replay": true, "answer": ...} (the key's stored answer)
-- or {"fallback": true} (nothing written: the platform's transactional path answers).
CREATE OR REPLACE FUNCTION ledger_transfer_now(req jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_user integer := (req ->> 'userId')::integer;
  v_customer integer := (req ->> 'customerId')::integer;
  v_kind text := req ->> 'kind';
  v_from integer := (req ->> 'from')::integer;
  v_to integer := (req ->> 'to')::integer;
  v_currency text := req ->> 'currency';
  v_exponent integer := (req ->> 'exponent')::integer;
  v_params jsonb := req -> 'params';
  v_created timestamptz := (req ->> 'createdAt')::timestamptz;
  v_amount numeric := (req ->> 'amountMinor')::numeric;
  src record;
  dst record;
  v_mode text;
  v_user_found boolean;
  v_flags jsonb;
  v_rule record;
  v_lim record;
  v_fee bigint;
  v_fee_account integer;
  v_stored record;
  v_transfer bigint;
  v_answer jsonb;
BEGIN
  IF v_kind IS DISTINCT FROM 'betweenAccounts' THEN
    RETURN jsonb_build_object('fallback', true);
  END IF;
  SELECT account_id, customer_id, purpose, status, currency INTO src FROM accounts WHERE account_id = v_from;
  SELECT account_id, customer_id, purpose, status, currency INTO dst FROM accounts WHERE account_id = v_to;
  SELECT coalesce(transaction_approve_mode, 'none') INTO v_mode FROM customers WHERE id = v_customer;
  -- Posted at once only (approve mode none, one currency); anything else goes the transactional way.
  IF coalesce(v_mode, 'none') <> 'none' OR (src.currency IS NOT NULL AND dst.currency IS NOT NULL AND src.currency <> dst.currency) THEN
    RETURN jsonb_build_object('fallback', true);
  END IF;

  -- A key stored before answers now: its answer again, or VF when it was another request. (A key
  -- claimed by a transaction still running is met below, when this one stores its own.)
  SELECT method, request_hash, response INTO v_stored FROM idempotency_keys WHERE user_id = v_user AND key = req ->> 'key';
  IF FOUND THEN
    IF v_stored.method <> req ->> 'method' OR v_stored.request_hash <> req ->> 'requestHash' THEN
      PERFORM ledger_refuse('reused');
    END IF;
    RETURN jsonb_build_object('replay', true, 'answer', v_stored.response);
  END IF;

  -- The checks, in the service's order: flags, source, user, same account, destination, amount, limits.
  SELECT CASE WHEN u.customer_id = v_customer THEN u.money_permissions
    ELSE (SELECT ca.money_permissions FROM customer_access ca
          WHERE ca.user_id = u.id AND ca.customer_id = v_customer AND ca.access_rights IN (2, 3, 4) LIMIT 1) END,
    true
  INTO v_flags, v_user_found
  FROM users u WHERE u.id = v_user;
  IF EXISTS (SELECT 1 FROM jsonb_array_elements_text(req -> 'requiredFlags') AS f(flag) WHERE (v_flags -> f.flag) IS DISTINCT FROM 'true'::jsonb) THEN
    PERFORM ledger_refuse('13');
  END IF;
  IF src.account_id IS NULL OR src.customer_id <> v_customer OR src.purpose <> 'customer' THEN PERFORM ledger_refuse('ENOA'); END IF;
  IF src.status = 11 THEN PERFORM ledger_refuse('CA'); END IF;
  IF v_user_found IS NULL THEN PERFORM ledger_refuse('AU'); END IF;
  IF v_to = v_from THEN PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'sameAccount', 'param', v_params ->> 'to')); END IF;
  IF dst.account_id IS NULL OR dst.customer_id <> v_customer OR dst.purpose <> 'customer' THEN PERFORM ledger_refuse('ENOA'); END IF;
  IF dst.status = 11 THEN PERFORM ledger_refuse('CA'); END IF;
  IF v_currency IS DISTINCT FROM src.currency THEN
    PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'currencyOfAccounts', 'param', v_params ->> 'currency'));
  END IF;
  IF v_amount IS NULL THEN PERFORM ledger_refuse('amount'); END IF;
  IF v_amount <= 0 THEN PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'positive', 'param', v_params ->> 'amount')); END IF;
  SELECT min_minor, max_minor, daily_minor INTO v_lim FROM transfer_limits WHERE operation = v_kind AND currency = src.currency;
  IF v_lim.min_minor IS NOT NULL AND v_amount < v_lim.min_minor THEN
    PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'belowMinimum', 'param', v_params ->> 'amount',
      'amount', ledger_minor_to_decimal(v_lim.min_minor, v_exponent), 'currency', src.currency));
  END IF;
  IF v_lim.max_minor IS NOT NULL AND v_amount > v_lim.max_minor THEN
    PERFORM ledger_refuse('VF', jsonb_build_object('vf', 'aboveMaximum', 'param', v_params ->> 'amount',
      'amount', ledger_minor_to_decimal(v_lim.max_minor, v_exponent), 'currency', src.currency));
  END IF;

  SELECT fixed_minor, basis_points, min_minor, max_minor INTO v_rule FROM fee_rules WHERE operation = 'betweenAccounts' AND currency = src.currency;
  v_fee := ledger_fee(v_amount::bigint, v_rule.fixed_minor, v_rule.basis_points, v_rule.min_minor, v_rule.max_minor);
  IF v_fee > 0 THEN
    SELECT pa.account_id INTO v_fee_account FROM accounts pa JOIN customers c ON c.id = pa.customer_id
    WHERE c.is_provider AND pa.purpose = 'fee' AND pa.currency = src.currency ORDER BY pa.account_id LIMIT 1;
  END IF;

  v_transfer := nextval('transfers_id_seq');
  v_answer := jsonb_build_object(
    'responseCode', '00', 'transactionId', v_transfer, 'status', 'posted', 'approveType', 'none', 'approvalSentTo', NULL,
    'fee', ledger_minor_to_decimal(v_fee, v_exponent), 'feeCurrency', src.currency,
    'amount', ledger_minor_to_decimal(v_amount, v_exponent), 'currency', src.currency,
    'toAmount', ledger_minor_to_decimal(v_amount, v_exponent), 'toCurrency', dst.currency,
    'rate', '1', 'expiresAt', req ->> 'expiresAt', 'scheduleId', NULL);
  -- The key with its answer, before any lock: a concurrent duplicate waits here until this
  -- transaction ends; when this one committed, the duplicate rolls back (40001) and its re-run
  -- answers the stored answer.
  INSERT INTO idempotency_keys (user_id, key, method, request_hash, response)
  VALUES (v_user, req ->> 'key', req ->> 'method', req ->> 'requestHash', v_answer)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = 'the idempotency key was stored by a concurrent request';
  END IF;
  INSERT INTO audit_log (user_id, customer_id, method, details)
  VALUES (v_user, v_customer, req ->> 'method', jsonb_build_object('transferId', v_transfer, 'kind', v_kind, 'approveType', 'none'));

  PERFORM ledger_post_transfer(v_transfer, nextval('journal_entries_id_seq'), v_kind, v_customer, v_user, v_from, v_to, dst.customer_id,
    src.currency, v_amount::bigint, v_amount::bigint, v_fee, v_fee_account, '1',
    v_lim.daily_minor, v_exponent, v_params ->> 'amount',
    v_created, (req ->> 'expiresAt')::timestamptz, (req ->> 'day')::date);
  RETURN jsonb_build_object('answer', v_answer);
END
$$;
