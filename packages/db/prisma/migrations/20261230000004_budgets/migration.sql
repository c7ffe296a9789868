-- Budgets on keys and projects; the ledger names the budget counters each entry moved.
CREATE TABLE "budgets" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "key_id" UUID,
    "project_id" UUID,
    "amount_micros" BIGINT NOT NULL,
    "period" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "alert_at" INTEGER[] NOT NULL DEFAULT ARRAY[50, 80, 100],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "budgets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "budgets_one_scope" CHECK (("scope" = 'key' AND "key_id" IS NOT NULL AND "project_id" IS NULL) OR ("scope" = 'project' AND "project_id" IS NOT NULL AND "key_id" IS NULL))
);

CREATE UNIQUE INDEX "budgets_key_id_key" ON "budgets"("key_id");
CREATE UNIQUE INDEX "budgets_project_id_key" ON "budgets"("project_id");
CREATE INDEX "budgets_tenant_id_idx" ON "budgets"("tenant_id");

ALTER TABLE "budgets" ADD CONSTRAINT "budgets_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ledger_entries" ADD COLUMN "budgets" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
CREATE INDEX "ledger_entries_budgets_idx" ON "ledger_entries" USING GIN ("budgets");
