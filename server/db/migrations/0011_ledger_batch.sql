-- Transfers posted in batches (issue 12 goal 3, third round).
--
-- Why: measured with perf and pg_stat_statements on the PostgreSQL backends, a transfer's CPU goes to
-- the work per row and per statement (executor start and end, index inserts, foreign-key checks),
-- not to round trips: pgbench writing the same rows with no checks at all (no function, no HTTP)
-- reaches 0.38 of the raw transfer, the one-statement function 0.40. Fewer statements per transfer
-- was tried (16 statements and 10 foreign-key checks down to 5 statements): no gain beyond noise.
-- What amortizes that work is doing it for several transfers at once: one statement writes the
-- transfers of a batch, one their entries, one their legs, one the balances, one commit.
--
-- ledger_transfer_batch(reqs jsonb): reqs is an array of ledger_transfer_now requests (0009). It
-- answers an array in the same order: {"answer": ...} for a transfer posted now, {"retry": true}
-- for a request the batch leaves to ledger_transfer_now, one by one, after this transaction (a
-- refusal of any kind, a replay, another kind or approve mode, a fee, a key met twice in the batch
-- or claimed by another transaction, a source refused under its lock). The batch answers only the
-- common case; the exact answer of everything else stays in one place (ledger_transfer_now). It
-- raises (and so writes nothing) when the day's limit counter refuses any of its groups: the
-- platform then asks each request one by one.
--
-- Locks, in the order of every other path: the keys (sorted by user and key, so two batches cannot
-- deadlock on them), the customer accounts of the whole batch in ascending id order, the day's
-- counters (one count per customer, kind, currency and day with the group's sum). The balances
-- are checked request by request in the batch's order, on the locked rows with the batch's earlier
-- transfers applied; a request refused there leaves the balances as they were and its key is
-- deleted again (the one-by-one path stores no key for a refusal).
-- ledger_count_daily (0010) tries its first shard outside its subtransaction: a PL/pgSQL block
-- with an EXCEPTION clause starts a subtransaction each time it is entered, and the counter's row
-- then carries a subtransaction id that every other backend looks up in pg_subtrans. Only the
-- attempt that waits for a held shard needs one. Same answers, same locks.
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
  -- A shard with room under this limit that no other transaction holds. The row is locked by the
  -- subquery only when it has room, so this attempt never keeps a row it cannot count in: no
  -- subtransaction needed.
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
  -- The attempt that waits, in a subtransaction: one that met a row changed under it (no room any
  -- more) keeps that row locked; rolled back, it holds none when it goes on to lock all the shards
  -- in order (else two such requests could deadlock).
  BEGIN
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
CREATE OR REPLACE FUNCTION ledger_transfer_batch(reqs jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  n integer := jsonb_array_length(reqs);
  answers jsonb[] := array_fill('{"retry": true}'::jsonb, ARRAY[n]);
  c record;
  -- the accepted requests, in the batch's order
  a_ord integer[] := '{}';
  a_transfer bigint[] := '{}';
  a_entry bigint[] := '{}';
  a_user integer[] := '{}';
  a_customer integer[] := '{}';
  a_from integer[] := '{}';
  a_to integer[] := '{}';
  a_to_customer integer[] := '{}';
  a_currency text[] := '{}';
  a_amount bigint[] := '{}';
  a_key text[] := '{}';
  a_method text[] := '{}';
  a_hash text[] := '{}';
  a_answer jsonb[] := '{}';
  a_day date[] := '{}';
  a_daily numeric[] := '{}';
  a_created timestamptz[] := '{}';
  a_expires timestamptz[] := '{}';
  a_ok boolean[] := '{}';
  seen text[] := '{}';
  v_key text;
  v_transfer bigint;
  v_exponent integer;
  v_amount numeric;
  v_answer jsonb;
  i integer;
  m integer;
  -- the locked accounts and their running balances
  l_id integer[];
  l_status integer[];
  l_balance bigint[];
  l_pending bigint[];
  l_min bigint[];
  s integer;
  d integer;
  g record;
  v_over numeric;
  v_claimed text[];
BEGIN
  -- 1. Every request's context in one statement; the checks of ledger_transfer_now. Anything but
  -- the common case is left to it (answers[ord] stays retry).
  FOR c IN
    SELECT r.ord::integer AS ord, r.req,
      src.account_id AS src_id, src.customer_id AS src_customer, src.purpose AS src_purpose, src.status AS src_status, src.currency AS src_currency,
      dst.account_id AS dst_id, dst.customer_id AS dst_customer, dst.purpose AS dst_purpose, dst.status AS dst_status, dst.currency AS dst_currency,
      coalesce(cu.transaction_approve_mode, 'none') AS mode,
      k.user_id IS NOT NULL AS key_stored,
      u.id AS user_id,
      NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(r.req -> 'requiredFlags') AS rf(flag)
        WHERE (CASE WHEN u.customer_id = (r.req ->> 'customerId')::integer THEN u.money_permissions ELSE ca.money_permissions END -> rf.flag)
          IS DISTINCT FROM 'true'::jsonb) AS flags_ok,
      l.min_minor AS lim_min, l.max_minor AS lim_max, l.daily_minor AS lim_daily,
      f.fixed_minor AS fee_fixed, f.basis_points AS fee_bp, f.min_minor AS fee_min, f.max_minor AS fee_max
    FROM jsonb_array_elements(reqs) WITH ORDINALITY AS r(req, ord)
    LEFT JOIN accounts src ON src.account_id = (r.req ->> 'from')::integer
    LEFT JOIN accounts dst ON dst.account_id = (r.req ->> 'to')::integer
    LEFT JOIN customers cu ON cu.id = (r.req ->> 'customerId')::integer
    LEFT JOIN idempotency_keys k ON k.user_id = (r.req ->> 'userId')::integer AND k.key = r.req ->> 'key'
    LEFT JOIN users u ON u.id = (r.req ->> 'userId')::integer
    LEFT JOIN LATERAL (SELECT x.money_permissions FROM customer_access x
      WHERE x.user_id = u.id AND x.customer_id = (r.req ->> 'customerId')::integer AND x.access_rights IN (2, 3, 4)
        AND u.customer_id <> (r.req ->> 'customerId')::integer LIMIT 1) AS ca ON true
    LEFT JOIN transfer_limits l ON l.operation = r.req ->> 'kind' AND l.currency = src.currency
    LEFT JOIN fee_rules f ON f.operation = 'betweenAccounts' AND f.currency = src.currency
    ORDER BY r.ord
  LOOP
    v_amount := (c.req ->> 'amountMinor')::numeric;
    v_key := (c.req ->> 'userId') || ':' || (c.req ->> 'key');
    CONTINUE WHEN c.req ->> 'kind' IS DISTINCT FROM 'betweenAccounts' OR c.mode <> 'none' OR c.key_stored
      OR v_key = ANY (seen)
      OR c.user_id IS NULL
      OR NOT c.flags_ok
      OR c.src_id IS NULL OR c.src_customer <> (c.req ->> 'customerId')::integer OR c.src_purpose <> 'customer' OR c.src_status = 11
      OR c.dst_id IS NULL OR c.dst_customer <> (c.req ->> 'customerId')::integer OR c.dst_purpose <> 'customer' OR c.dst_status = 11
      OR c.src_id = c.dst_id OR c.src_currency <> c.dst_currency OR (c.req ->> 'currency') IS DISTINCT FROM c.src_currency
      OR v_amount IS NULL OR v_amount <= 0
      OR (c.lim_min IS NOT NULL AND v_amount < c.lim_min) OR (c.lim_max IS NOT NULL AND v_amount > c.lim_max)
      OR ledger_fee(v_amount::bigint, c.fee_fixed, c.fee_bp, c.fee_min, c.fee_max) <> 0;
    seen := seen || v_key;
    v_exponent := (c.req ->> 'exponent')::integer;
    v_transfer := nextval('transfers_id_seq');
    v_answer := jsonb_build_object(
      'responseCode', '00', 'transactionId', v_transfer, 'status', 'posted', 'approveType', 'none', 'approvalSentTo', NULL,
      'fee', ledger_minor_to_decimal(0, v_exponent), 'feeCurrency', c.src_currency,
      'amount', ledger_minor_to_decimal(v_amount, v_exponent), 'currency', c.src_currency,
      'toAmount', ledger_minor_to_decimal(v_amount, v_exponent), 'toCurrency', c.dst_currency,
      'rate', '1', 'expiresAt', c.req ->> 'expiresAt', 'scheduleId', NULL);
    a_ord := a_ord || c.ord;
    a_transfer := a_transfer || v_transfer;
    a_entry := a_entry || nextval('journal_entries_id_seq');
    a_user := a_user || c.user_id;
    a_customer := a_customer || c.src_customer;
    a_from := a_from || c.src_id;
    a_to := a_to || c.dst_id;
    a_to_customer := a_to_customer || c.dst_customer;
    a_currency := a_currency || c.src_currency;
    a_amount := a_amount || v_amount::bigint;
    a_key := a_key || (c.req ->> 'key');
    a_method := a_method || (c.req ->> 'method');
    a_hash := a_hash || (c.req ->> 'requestHash');
    a_answer := a_answer || v_answer;
    a_day := a_day || (c.req ->> 'day')::date;
    a_daily := a_daily || c.lim_daily;
    a_created := a_created || (c.req ->> 'createdAt')::timestamptz;
    a_expires := a_expires || (c.req ->> 'expiresAt')::timestamptz;
    a_ok := a_ok || true;
  END LOOP;
  m := coalesce(array_length(a_ord, 1), 0);
  IF m = 0 THEN
    RETURN to_jsonb(answers);
  END IF;

  -- 2. The keys with their answers, sorted by user and key, before any other lock. A key another
  -- transaction stored meanwhile is not claimed: its request goes one by one (and replays there).
  WITH ins AS (
    INSERT INTO idempotency_keys (user_id, key, method, request_hash, response)
    SELECT x.u, x.k, x.m, x.h, x.a FROM unnest(a_user, a_key, a_method, a_hash, a_answer) AS x(u, k, m, h, a)
    ORDER BY x.u, x.k
    ON CONFLICT DO NOTHING
    RETURNING user_id || ':' || key AS claimed
  )
  SELECT coalesce(array_agg(claimed), '{}') INTO v_claimed FROM ins;
  FOR i IN 1 .. m LOOP
    IF NOT ((a_user[i] || ':' || a_key[i]) = ANY (v_claimed)) THEN a_ok[i] := false; END IF;
  END LOOP;

  -- 3. The batch's customer accounts in ascending id order; each source checked in the batch's
  -- order with the earlier transfers applied.
  SELECT array_agg(x.account_id ORDER BY x.account_id), array_agg(x.status ORDER BY x.account_id), array_agg(x.balance_minor ORDER BY x.account_id),
    array_agg(x.pending_minor ORDER BY x.account_id), array_agg(x.balance_min_minor ORDER BY x.account_id)
  INTO l_id, l_status, l_balance, l_pending, l_min
  FROM (SELECT account_id, status, balance_minor, pending_minor, balance_min_minor FROM accounts
    WHERE account_id = ANY (a_from || a_to) AND purpose = 'customer'
    ORDER BY account_id FOR NO KEY UPDATE) AS x;
  FOR i IN 1 .. m LOOP
    CONTINUE WHEN NOT a_ok[i];
    s := array_position(l_id, a_from[i]);
    d := array_position(l_id, a_to[i]);
    IF s IS NULL OR d IS NULL OR l_status[s] = 11 OR l_status[d] = 11
      OR l_balance[s] - l_pending[s] - a_amount[i] < l_min[s]
      OR l_balance[d] + a_amount[i] - l_pending[d] < l_min[d] THEN
      a_ok[i] := false;
      DELETE FROM idempotency_keys WHERE user_id = a_user[i] AND key = a_key[i];
    ELSE
      l_balance[s] := l_balance[s] - a_amount[i];
      l_balance[d] := l_balance[d] + a_amount[i];
    END IF;
  END LOOP;

  -- 4. The day's counters, last: one count per customer, kind, currency and day with the group's
  -- sum. A refusal raises: the platform asks each request one by one.
  FOR g IN
    SELECT x.cu, x.cur, x.day, max(x.daily) AS daily, sum(x.amt)::bigint AS total
    FROM unnest(a_customer, a_currency, a_day, a_daily, a_amount, a_ok) AS x(cu, cur, day, daily, amt, ok)
    WHERE x.ok GROUP BY x.cu, x.cur, x.day ORDER BY x.cu, x.cur, x.day
  LOOP
    v_over := ledger_count_daily(g.cu, 'betweenAccounts', g.cur, g.day, g.total, g.daily);
    IF v_over IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'WL003', MESSAGE = 'a daily limit refuses part of the batch';
    END IF;
  END LOOP;

  -- 5. The rows and the balances, a statement each for the whole batch.
  WITH ok AS (
    SELECT * FROM unnest(a_transfer, a_entry, a_user, a_customer, a_from, a_to, a_to_customer, a_currency, a_amount, a_created, a_expires, a_method, a_ok)
      AS x(tid, eid, uid, cid, src, dst, dcid, cur, amt, created, expires, method, ok)
    WHERE x.ok
  ), t AS (
    INSERT INTO transfers (id, kind, status, customer_id, user_id, from_account_id, to_account_id, to_customer_id, from_currency, to_currency,
      amount_minor, to_amount_minor, fee_minor, rate, approve_type, entry_id, expires_at, created_at, updated_at)
    SELECT tid, 'betweenAccounts', 'posted', cid, uid, src, dst, dcid, cur, cur, amt, amt, 0, '1', 'none', eid, expires, created, created FROM ok
  ), e AS (
    INSERT INTO journal_entries (id, kind, idempotency_key, transfer_id, description)
    SELECT eid, 'transfer', 'transfer:' || tid, tid, jsonb_build_object('kind', 'betweenAccounts', 'transferId', tid) FROM ok
  ), legs AS (
    INSERT INTO journal_legs (entry_id, account_id, currency, amount_minor)
    SELECT ok.eid, v.account_id, ok.cur, v.amount FROM ok CROSS JOIN LATERAL (VALUES (ok.src, -ok.amt), (ok.dst, ok.amt)) AS v(account_id, amount)
  ), audit AS (
    INSERT INTO audit_log (user_id, customer_id, method, details)
    SELECT uid, cid, method, jsonb_build_object('transferId', tid, 'kind', 'betweenAccounts', 'approveType', 'none') FROM ok
  )
  UPDATE accounts a SET balance_minor = a.balance_minor + dl.delta
  FROM (SELECT v.account_id, sum(v.amount) AS delta FROM ok CROSS JOIN LATERAL (VALUES (ok.src, -ok.amt), (ok.dst, ok.amt)) AS v(account_id, amount)
    GROUP BY v.account_id) AS dl
  WHERE a.account_id = dl.account_id;

  FOR i IN 1 .. m LOOP
    IF a_ok[i] THEN answers[a_ord[i]] := jsonb_build_object('answer', a_answer[i]); END IF;
  END LOOP;
  RETURN to_jsonb(answers);
END
$$;
