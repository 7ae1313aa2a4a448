-- CreateTable
CREATE TABLE "oracle_block_checkpoints" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oracle_block_checkpoints_pkey" PRIMARY KEY ("chain_id","block_number")
);

-- CreateTable
CREATE TABLE "oracle_snapshots" (
    "name" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "block_number" BIGINT NOT NULL,
    "built_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oracle_snapshots_pkey" PRIMARY KEY ("name")
);

