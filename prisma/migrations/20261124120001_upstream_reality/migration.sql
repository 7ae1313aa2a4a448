-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "whales_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "sampler_runs" ADD COLUMN     "dropped" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tape_gaps" JSONB,
ADD COLUMN     "upstream_requests" JSONB;

