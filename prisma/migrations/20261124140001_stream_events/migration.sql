-- CreateTable
CREATE TABLE "stream_events" (
    "seq" BIGSERIAL NOT NULL,
    "topic" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "market_id" TEXT,
    "usd_size" DOUBLE PRECISION,
    "payload" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stream_events_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "stream_events_created_at_idx" ON "stream_events"("created_at");


-- The stream log is fed by triggers so that every writer (worker ingest, sampler loop, cron route) publishes alike
-- and only rows that were really inserted or really changed are published (ON CONFLICT DO NOTHING leaves a repeated
-- fill out of the transition table). Each trigger takes one transaction-scoped advisory lock before drawing `seq`:
-- the lock is held until commit, so sequence numbers become visible in the order they were drawn and a reader that
-- has seen seq N can never later find a smaller one committed. NOTIFY is delivered at commit, with the newest seq.
CREATE FUNCTION stream_trades_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE newest BIGINT;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM inserted) THEN RETURN NULL; END IF;
  PERFORM pg_advisory_xact_lock(741400001);
  WITH added AS (
    INSERT INTO stream_events (topic, ref, market_id, usd_size)
    SELECT 'trade', i.id, i.market_id, i.usd_size FROM inserted i ORDER BY i.timestamp, i.id
    RETURNING seq)
  SELECT max(seq) INTO newest FROM added;
  PERFORM pg_notify('predmkt_stream', newest::text);
  RETURN NULL;
END $$;

CREATE TRIGGER stream_trades_inserted AFTER INSERT ON trades
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION stream_trades_inserted();

-- A tick is an outcome whose latest price change (last_change_at) moved; its price, previous price and time are
-- copied because the outcome row is overwritten by the next change.
CREATE FUNCTION stream_ticks(changed outcomes[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE newest BIGINT;
BEGIN
  IF coalesce(array_length(changed, 1), 0) = 0 THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(741400001);
  WITH added AS (
    INSERT INTO stream_events (topic, ref, market_id, payload)
    SELECT 'tick', c.token_id, c.market_id,
           jsonb_build_object('price', c.price, 'previous_price', c.previous_price, 'at', c.last_change_at)
    FROM unnest(changed) c ORDER BY c.last_change_at, c.market_id, c.index
    RETURNING seq)
  SELECT max(seq) INTO newest FROM added;
  PERFORM pg_notify('predmkt_stream', newest::text);
END $$;

CREATE FUNCTION stream_outcomes_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stream_ticks(ARRAY(SELECT n::outcomes FROM new_rows n WHERE n.last_change_at IS NOT NULL AND n.price IS NOT NULL));
  RETURN NULL;
END $$;

CREATE FUNCTION stream_outcomes_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stream_ticks(ARRAY(
    SELECT n::outcomes FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.last_change_at IS DISTINCT FROM o.last_change_at AND n.last_change_at IS NOT NULL AND n.price IS NOT NULL));
  RETURN NULL;
END $$;

CREATE TRIGGER stream_outcomes_inserted AFTER INSERT ON outcomes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stream_outcomes_inserted();
CREATE TRIGGER stream_outcomes_updated AFTER UPDATE ON outcomes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stream_outcomes_updated();

-- Retention follows the tape: when trades are deleted, their stream rows go, and so do ticks older than the newest
-- of them. `stream_pruned_through` remembers the highest seq removed, so a client resuming from an older cursor is
-- told it has a gap instead of silently missing events.
CREATE FUNCTION stream_trades_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE newest BIGINT;
BEGIN
  WITH gone AS (
    DELETE FROM stream_events e USING deleted d WHERE e.topic = 'trade' AND e.ref = d.id RETURNING e.seq)
  SELECT max(seq) INTO newest FROM gone;
  IF newest IS NULL THEN RETURN NULL; END IF;
  DELETE FROM stream_events WHERE topic = 'tick' AND seq < newest;
  INSERT INTO sampler_state (key, at, value) VALUES ('stream_pruned_through', now(), newest::text)
  ON CONFLICT (key) DO UPDATE SET at = excluded.at,
    value = greatest(coalesce(sampler_state.value, '0')::bigint, excluded.value::bigint)::text;
  RETURN NULL;
END $$;

CREATE TRIGGER stream_trades_deleted AFTER DELETE ON trades
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION stream_trades_deleted();
