-- Account alerts: a tenant's webhook endpoint for them, its thresholds, and every alert fired.
CREATE TABLE "tenant_webhook_endpoints" (
    "tenant_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL DEFAULT ARRAY['*']::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tenant_webhook_endpoints_pkey" PRIMARY KEY ("tenant_id")
);

CREATE TABLE "tenant_alert_settings" (
    "tenant_id" UUID NOT NULL,
    "balance_below_micros" BIGINT,
    "quota_below" INTEGER,
    "balance_epoch" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tenant_alert_settings_pkey" PRIMARY KEY ("tenant_id")
);

CREATE TABLE "tenant_alerts" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "url" TEXT,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_alerts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "tenant_alerts_subject_id_type_key" ON "tenant_alerts"("subject_id", "type");
CREATE INDEX "tenant_alerts_tenant_id_created_at_idx" ON "tenant_alerts"("tenant_id", "created_at");

ALTER TABLE "tenant_webhook_endpoints" ADD CONSTRAINT "tenant_webhook_endpoints_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tenant_alert_settings" ADD CONSTRAINT "tenant_alert_settings_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tenant_alerts" ADD CONSTRAINT "tenant_alerts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
