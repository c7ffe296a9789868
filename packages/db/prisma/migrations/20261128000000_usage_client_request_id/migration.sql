-- The client's own x-request-id beside the server's request id, so an operator can find a usage row by
-- the id the client logged. Never a key: many rows may carry the same client id.
ALTER TABLE "usage_records" ADD COLUMN "client_request_id" TEXT;

CREATE INDEX "usage_records_tenant_id_client_request_id_idx" ON "usage_records"("tenant_id", "client_request_id");
