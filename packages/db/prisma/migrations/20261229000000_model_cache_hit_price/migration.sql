-- The price of an answer served from the gateway's response cache, over its input and output tokens.
ALTER TABLE "models" ADD COLUMN "cache_hit_micros_per_mtok" BIGINT NOT NULL DEFAULT 0;
