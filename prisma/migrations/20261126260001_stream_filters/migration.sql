-- AlterTable
ALTER TABLE "stream_events" ADD COLUMN     "event_slug" TEXT;

-- CreateIndex
CREATE INDEX "stream_events_market_id_seq_idx" ON "stream_events"("market_id", "seq");

-- CreateIndex
CREATE INDEX "stream_events_event_slug_seq_idx" ON "stream_events"("event_slug", "seq");


-- The event a stream row belongs to, written once at insert so the stream's `event` filter is an index lookup instead
-- of three joins per row of the retained log (docs/stream.md "Replay"): the market's event when the market is
-- stored, else the event a resolution transition carries in its payload (its market may be one never sampled).
CREATE FUNCTION stream_event_slug() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.event_slug IS NULL THEN
    NEW.event_slug := coalesce(
      (SELECT m.event_slug FROM markets m WHERE m.id = NEW.market_id),
      NEW.payload->'market'->>'event_slug');
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER stream_event_slug BEFORE INSERT ON stream_events
  FOR EACH ROW EXECUTE FUNCTION stream_event_slug();

-- Rows already in the log get theirs the same way (a trade's market is the trade's own).
UPDATE stream_events e SET event_slug = coalesce(m.event_slug, e.payload->'market'->>'event_slug')
FROM (SELECT id, event_slug FROM markets) m WHERE m.id = e.market_id;
UPDATE stream_events SET event_slug = payload->'market'->>'event_slug' WHERE event_slug IS NULL AND payload ? 'market';
