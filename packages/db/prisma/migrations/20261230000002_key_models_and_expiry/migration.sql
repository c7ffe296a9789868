-- What a key may do: the models it may use (ids or `*` patterns; empty: every model its tenant sees) and
-- when it stops working on its own.
ALTER TABLE "api_keys" ADD COLUMN "models" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMP(3);
