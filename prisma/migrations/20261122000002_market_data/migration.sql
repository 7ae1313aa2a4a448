-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "category" TEXT,
    "category_label" TEXT,
    "volume_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "volume_24h_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "liquidity_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "end_date" TIMESTAMPTZ(3),
    "active" BOOLEAN NOT NULL,
    "closed" BOOLEAN NOT NULL,
    "open" BOOLEAN NOT NULL,
    "market_count" INTEGER NOT NULL DEFAULT 0,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "markets" (
    "id" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_slug" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL,
    "closed" BOOLEAN NOT NULL,
    "open" BOOLEAN NOT NULL,
    "volume_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "volume_24h_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "liquidity_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "end_date" TIMESTAMPTZ(3),
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "markets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outcomes" (
    "id" SERIAL NOT NULL,
    "token_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "price" DOUBLE PRECISION,
    "priced_at" TIMESTAMPTZ(3),
    "first_sampled_at" TIMESTAMPTZ(3),
    "last_stored_at" TIMESTAMPTZ(3),
    "last_stored_price" DOUBLE PRECISION,
    "last_change_at" TIMESTAMPTZ(3),
    "previous_price" DOUBLE PRECISION,

    CONSTRAINT "outcomes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_samples" (
    "outcome_id" INTEGER NOT NULL,
    "resolution_s" SMALLINT NOT NULL,
    "t" TIMESTAMPTZ(3) NOT NULL,
    "price" REAL NOT NULL,

    CONSTRAINT "price_samples_pkey" PRIMARY KEY ("resolution_s","outcome_id","t")
);

-- CreateTable
CREATE TABLE "trades" (
    "id" TEXT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "market_id" TEXT,
    "outcome" TEXT,
    "outcome_index" INTEGER,
    "side" TEXT NOT NULL,
    "price" DOUBLE PRECISION NOT NULL,
    "shares" DOUBLE PRECISION NOT NULL,
    "usd_size" DOUBLE PRECISION NOT NULL,
    "wallet" TEXT NOT NULL,
    "pseudonym" TEXT,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "trades_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "whale_positions" (
    "wallet" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "condition_id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "outcome_index" INTEGER NOT NULL,
    "pseudonym" TEXT,
    "shares" DOUBLE PRECISION NOT NULL,
    "entry_price" DOUBLE PRECISION,
    "sampled_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "whale_positions_pkey" PRIMARY KEY ("wallet","token_id")
);

-- CreateTable
CREATE TABLE "sampler_runs" (
    "id" SERIAL NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "events" INTEGER NOT NULL DEFAULT 0,
    "markets" INTEGER NOT NULL DEFAULT 0,
    "outcomes" INTEGER NOT NULL DEFAULT 0,
    "samples" INTEGER NOT NULL DEFAULT 0,
    "trades" INTEGER NOT NULL DEFAULT 0,
    "whales" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "sampler_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sampler_lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sampler_lease_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "sampler_state" (
    "key" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "value" TEXT,

    CONSTRAINT "sampler_state_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_slug_key" ON "events"("slug");

-- CreateIndex
CREATE INDEX "events_open_volume_24h_usd_idx" ON "events"("open", "volume_24h_usd" DESC);

-- CreateIndex
CREATE INDEX "events_open_volume_usd_idx" ON "events"("open", "volume_usd" DESC);

-- CreateIndex
CREATE INDEX "events_open_liquidity_usd_idx" ON "events"("open", "liquidity_usd" DESC);

-- CreateIndex
CREATE INDEX "events_open_category_idx" ON "events"("open", "category");

-- CreateIndex
CREATE INDEX "events_open_seen_at_idx" ON "events"("open", "seen_at");

-- CreateIndex
CREATE UNIQUE INDEX "markets_condition_id_key" ON "markets"("condition_id");

-- CreateIndex
CREATE INDEX "markets_event_id_position_idx" ON "markets"("event_id", "position");

-- CreateIndex
CREATE INDEX "markets_open_volume_usd_idx" ON "markets"("open", "volume_usd" DESC);

-- CreateIndex
CREATE INDEX "markets_open_seen_at_idx" ON "markets"("open", "seen_at");

-- CreateIndex
CREATE UNIQUE INDEX "outcomes_token_id_key" ON "outcomes"("token_id");

-- CreateIndex
CREATE INDEX "outcomes_last_change_at_idx" ON "outcomes"("last_change_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "outcomes_market_id_index_key" ON "outcomes"("market_id", "index");

-- CreateIndex
CREATE INDEX "trades_timestamp_idx" ON "trades"("timestamp" DESC);

-- CreateIndex
CREATE INDEX "trades_market_id_timestamp_idx" ON "trades"("market_id", "timestamp");

-- CreateIndex
CREATE INDEX "whale_positions_market_id_idx" ON "whale_positions"("market_id");

-- CreateIndex
CREATE INDEX "sampler_runs_started_at_idx" ON "sampler_runs"("started_at" DESC);

