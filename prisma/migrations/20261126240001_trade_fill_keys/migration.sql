-- One row per fill (docs/upstream-live.md, "One row per fill"). A fill heard on RTDS was keyed with RTDS's second
-- (usually one before the block time the Data API shows) and its wallet as RTDS spelled it (EIP-55 mixed case), so
-- the same fill read back from REST could be stored twice. From now on a fill's key is its transaction, token,
-- lower-case wallet, side, size and price (lib/upstream/schemas/data.ts fillKey, reproduced here in SQL: sizes and
-- prices in millionths rounded half up). Rows stored before keep their ids; they get the key, and duplicates merge.

-- Wallets and transaction hashes are hex: one form, lower case.
UPDATE "trades" SET "wallet" = lower("wallet") WHERE "wallet" <> lower("wallet");
UPDATE "trades" SET "tx_hash" = lower("tx_hash") WHERE "tx_hash" <> lower("tx_hash");
-- A holder stored under two spellings of one wallet: the newest sample stays.
DELETE FROM "whale_positions" w USING "whale_positions" o
 WHERE lower(w."wallet") = lower(o."wallet") AND w."token_id" = o."token_id" AND w."wallet" <> o."wallet"
   AND (w."sampled_at", w."wallet") < (o."sampled_at", o."wallet");
UPDATE "whale_positions" SET "wallet" = lower("wallet") WHERE "wallet" <> lower("wallet");
-- Trades name their condition in the canonical form (a 62-digit V2 id padded to 64 digits with 00).
UPDATE "trades" SET "condition_id" = lower("condition_id") || '00' WHERE "condition_id" ~* '^0x[0-9a-f]{62}$';
UPDATE "trades" SET "condition_id" = lower("condition_id") WHERE "condition_id" <> lower("condition_id");

-- AlterTable
ALTER TABLE "trades" ADD COLUMN     "fill_key" TEXT;

-- The key needs the token: found from the market and outcome index. A row whose token cannot be found keeps no key.
UPDATE "trades" t SET "fill_key" = left(encode(sha256(convert_to(
         t."tx_hash" || '|' || o."token_id" || '|' || t."wallet" || '|' || t."side" || '|' ||
         floor(t."shares" * 1e6 + 0.5)::bigint::text || '|' || floor(t."price" * 1e6 + 0.5)::bigint::text ||
         CASE WHEN t."tx_hash" = '' THEN '|' || floor(extract(epoch FROM t."timestamp"))::bigint::text ELSE '' END,
         'UTF8')), 'hex'), 32)
  FROM "outcomes" o
 WHERE o."market_id" = t."market_id" AND o."index" = t."outcome_index";

-- Duplicates merge into the row with the latest timestamp (the block time the Data API shows), ties by id.
DELETE FROM "trades" t USING "trades" k
 WHERE t."fill_key" = k."fill_key" AND (t."timestamp", t."id") < (k."timestamp", k."id");
DELETE FROM "trades" t USING "trades" k
 WHERE t."fill_key" IS NULL AND k."fill_key" IS NULL AND t."tx_hash" <> '' AND t."tx_hash" = k."tx_hash"
   AND t."condition_id" = k."condition_id" AND t."outcome_index" IS NOT DISTINCT FROM k."outcome_index"
   AND t."wallet" = k."wallet" AND t."side" = k."side"
   AND floor(t."shares" * 1e6 + 0.5) = floor(k."shares" * 1e6 + 0.5) AND floor(t."price" * 1e6 + 0.5) = floor(k."price" * 1e6 + 0.5)
   AND (t."timestamp", t."id") < (k."timestamp", k."id");

-- CreateIndex
CREATE UNIQUE INDEX "trades_fill_key_key" ON "trades"("fill_key");
