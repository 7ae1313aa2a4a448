-- CreateTable
CREATE TABLE "wallet_ledger_chunks" (
    "wallet" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "from_s" INTEGER NOT NULL,
    "to_s" INTEGER NOT NULL,
    "row_count" INTEGER NOT NULL,
    "rows" JSONB NOT NULL,

    CONSTRAINT "wallet_ledger_chunks_pkey" PRIMARY KEY ("wallet","seq")
);

-- CreateTable
CREATE TABLE "wallet_sync" (
    "wallet" TEXT NOT NULL,
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "head_s" INTEGER NOT NULL,
    "backfill_end_s" INTEGER,
    "rows_read" INTEGER NOT NULL DEFAULT 0,
    "rows_dropped" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT,
    "pseudonym" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "topped_up_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "pnl_usd" DOUBLE PRECISION,
    "pnl_at" TIMESTAMPTZ(3),

    CONSTRAINT "wallet_sync_pkey" PRIMARY KEY ("wallet")
);

-- CreateIndex
CREATE INDEX "wallet_ledger_chunks_wallet_to_s_idx" ON "wallet_ledger_chunks"("wallet", "to_s" DESC);

