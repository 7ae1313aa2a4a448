-- Condition ids are hex: stored lower-case so a lookup by condition id is an equality on markets' unique index
-- instead of a case-insensitive scan. Data only; the schema is unchanged.
UPDATE "markets" SET "condition_id" = lower("condition_id") WHERE "condition_id" <> lower("condition_id");
