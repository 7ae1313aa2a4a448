-- CreateTable
CREATE TABLE "resolution_stream_states" (
    "dispute_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "vote_phase" TEXT,
    "round_id" INTEGER,
    "roll_count" INTEGER NOT NULL DEFAULT 0,
    "block_number" BIGINT,
    "polygon_block_number" BIGINT,
    "seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "resolution_stream_states_pkey" PRIMARY KEY ("dispute_id")
);

