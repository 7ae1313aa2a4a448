-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "neg_risk_request_id" TEXT,
ADD COLUMN     "question_id" TEXT;

-- CreateIndex
CREATE INDEX "markets_neg_risk_request_id_idx" ON "markets"("neg_risk_request_id");

