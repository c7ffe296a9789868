-- Billing and limits: rate limits per tenant and per key, and which pool a ledger entry moves.
ALTER TABLE "tenants" ADD COLUMN "limits" JSONB;

ALTER TABLE "api_keys" ADD COLUMN "limits" JSONB;

ALTER TABLE "ledger_entries" ADD COLUMN "pool" TEXT NOT NULL DEFAULT 'balance';
