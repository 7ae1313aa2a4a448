-- CreateTable
CREATE TABLE "oracle_scan_cursors" (
    "id" TEXT NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "from_block" BIGINT NOT NULL,
    "next_block" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oracle_scan_cursors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oracle_logs" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "transaction_hash" TEXT NOT NULL,
    "topic0" TEXT NOT NULL,
    "topics" TEXT[],
    "data" TEXT NOT NULL,
    "block_timestamp" BIGINT,

    CONSTRAINT "oracle_logs_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateIndex
CREATE INDEX "oracle_logs_chain_id_address_topic0_block_number_idx" ON "oracle_logs"("chain_id", "address", "topic0", "block_number");

