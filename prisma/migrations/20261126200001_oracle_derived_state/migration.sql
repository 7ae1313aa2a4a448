-- CreateTable
CREATE TABLE "oracle_votes" (
    "chain_id" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "revealed" BOOLEAN NOT NULL,
    "round_id" INTEGER NOT NULL,
    "voter" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "price" DECIMAL(78,0),
    "tokens" DECIMAL(78,0),

    CONSTRAINT "oracle_votes_pkey" PRIMARY KEY ("chain_id","block_number","log_index")
);

-- CreateTable
CREATE TABLE "oracle_rounds" (
    "round_id" INTEGER NOT NULL,
    "commits" INTEGER NOT NULL,
    "reveals" INTEGER NOT NULL,
    "unique_revealers" INTEGER NOT NULL,
    "requests_revealed" INTEGER NOT NULL,
    "tokens_revealed" DECIMAL(78,0) NOT NULL,
    "min_participation" DECIMAL(78,0),
    "min_agreement" DECIMAL(78,0),
    "cumulative_stake" DECIMAL(78,0),
    "requests_to_vote" INTEGER,
    "frozen_block" BIGINT,

    CONSTRAINT "oracle_rounds_pkey" PRIMARY KEY ("round_id")
);

-- CreateTable
CREATE TABLE "oracle_request_rounds" (
    "request_id" TEXT NOT NULL,
    "round_id" INTEGER NOT NULL,
    "commits" INTEGER NOT NULL,
    "reveals" INTEGER NOT NULL,
    "tokens_revealed" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "oracle_request_rounds_pkey" PRIMARY KEY ("request_id","round_id")
);

-- CreateTable
CREATE TABLE "oracle_vote_tallies" (
    "request_id" TEXT NOT NULL,
    "round_id" INTEGER NOT NULL,
    "price" DECIMAL(78,0) NOT NULL,
    "voters" INTEGER NOT NULL,
    "tokens" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "oracle_vote_tallies_pkey" PRIMARY KEY ("request_id","round_id","price")
);

-- CreateTable
CREATE TABLE "oracle_requests" (
    "chain_id" INTEGER NOT NULL,
    "request_id" TEXT NOT NULL,
    "oracle" TEXT,
    "requester" TEXT,
    "question_id" TEXT,
    "requested_at" BIGINT,
    "proposer" TEXT,
    "proposed_price" DECIMAL(78,0),
    "proposed_at" BIGINT,
    "proposed_block" BIGINT,
    "expires_at" BIGINT,
    "disputed_at" BIGINT,
    "disputed_block" BIGINT,
    "settled_at" BIGINT,
    "settled_price" DECIMAL(78,0),
    "settled_block" BIGINT,
    "resolved_price" DECIMAL(78,0),
    "resolved_round" INTEGER,
    "resolved_block" BIGINT,
    "state" INTEGER,
    "state_round" INTEGER,
    "state_block" BIGINT,
    "terminal" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "oracle_requests_pkey" PRIMARY KEY ("chain_id","request_id")
);

-- CreateIndex
CREATE INDEX "oracle_votes_request_id_round_id_idx" ON "oracle_votes"("request_id", "round_id");

-- CreateIndex
CREATE INDEX "oracle_votes_round_id_idx" ON "oracle_votes"("round_id");

-- CreateIndex
CREATE INDEX "oracle_requests_chain_id_question_id_idx" ON "oracle_requests"("chain_id", "question_id");

-- Data (by hand): VoteRevealed and RequestResolved are now kept as rows of oracle_votes / oracle_requests without
-- their ancillary text, so their raw logs go; the two scans gained events (VoteCommitted; ProposePrice, Settle) and
-- restart under new cursor names, which rebuilds every derived row from the configured start blocks.
DELETE FROM "oracle_logs" WHERE "topic0" IN (
    '0x97fd2ce926defea5c438a5e8084209a81af5ad8539d8198af200a52e0b7b374c',
    '0x4bd654e0f2fccf397ffdd356a54802a5a7888799057ecac1ca29c523bbeb1433'
);
DELETE FROM "oracle_scan_cursors" WHERE "id" LIKE '%:voting-v2' OR "id" LIKE '%:oov2-disputes';
