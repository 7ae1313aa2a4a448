-- CreateEnum
CREATE TYPE "KeyRequestStatus" AS ENUM ('pending', 'approved', 'rejected');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "grace_ends_at" TIMESTAMPTZ(3),
ADD COLUMN     "replaced_by_id" UUID,
ADD COLUMN     "rotated_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "key_requests" (
    "id" UUID NOT NULL,
    "reference" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "use_case" TEXT NOT NULL,
    "requests_per_minute" INTEGER NOT NULL,
    "requests_per_day" INTEGER NOT NULL,
    "desired_tier" "ApiKeyTier" NOT NULL,
    "status" "KeyRequestStatus" NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "key_id" UUID,
    "reject_reason" TEXT,

    CONSTRAINT "key_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_usage" (
    "key_id" UUID NOT NULL,
    "minute" TIMESTAMPTZ(3) NOT NULL,
    "operation" TEXT NOT NULL,
    "status_class" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "key_usage_pkey" PRIMARY KEY ("key_id","minute","operation","status_class")
);

-- CreateIndex
CREATE UNIQUE INDEX "key_requests_reference_key" ON "key_requests"("reference");

-- CreateIndex
CREATE INDEX "key_requests_status_created_at_idx" ON "key_requests"("status", "created_at");

-- CreateIndex
CREATE INDEX "key_usage_minute_idx" ON "key_usage"("minute");

