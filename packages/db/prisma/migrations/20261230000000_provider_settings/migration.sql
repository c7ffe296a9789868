-- A provider's non-secret, protocol-specific settings (Azure's api-version and paths, its Entra ID client).
ALTER TABLE "providers" ADD COLUMN "settings" JSONB;
