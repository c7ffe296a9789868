-- A tenant's response cache settings, and a key's narrowing of them (null: the tenant's).
ALTER TABLE "tenants" ADD COLUMN "cache" JSONB;
ALTER TABLE "api_keys" ADD COLUMN "cache" JSONB;
