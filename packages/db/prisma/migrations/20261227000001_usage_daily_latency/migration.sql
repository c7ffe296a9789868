-- Latencies counted per tenant, day, kind, model, key and histogram bucket, folded with usage_hourly (same
-- watermark): the console's latency percentiles read days of counts instead of every record.

-- CreateTable
CREATE TABLE "usage_daily_latency" (
    "tenant_id" UUID NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "key_id" UUID NOT NULL,
    "bucket" INTEGER NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_daily_latency_pkey" PRIMARY KEY ("tenant_id","day","kind","model_id","key_id","bucket")
);
