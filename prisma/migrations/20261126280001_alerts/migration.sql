-- CreateTable
CREATE TABLE "alert_subscriptions" (
    "id" TEXT NOT NULL,
    "key_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "rules" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "from_seq" BIGINT NOT NULL,
    "disabled_reason" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "id" TEXT NOT NULL,
    "position" BIGSERIAL NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "source_key" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "stored_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "lease_until" TIMESTAMPTZ(3),

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_cursors" (
    "name" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_cursors_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "alert_move_marks" (
    "subscription_id" TEXT NOT NULL,
    "market_id" TEXT NOT NULL,
    "window" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_move_marks_pkey" PRIMARY KEY ("subscription_id","market_id","window")
);

-- CreateIndex
CREATE INDEX "alert_subscriptions_key_id_idx" ON "alert_subscriptions"("key_id");

-- CreateIndex
CREATE INDEX "alert_deliveries_subscription_id_status_position_idx" ON "alert_deliveries"("subscription_id", "status", "position");

-- CreateIndex
CREATE INDEX "alert_deliveries_status_next_attempt_at_idx" ON "alert_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "alert_deliveries_subscription_id_source_key_key" ON "alert_deliveries"("subscription_id", "source_key");

