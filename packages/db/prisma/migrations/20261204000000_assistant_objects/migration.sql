-- CreateTable
CREATE TABLE "assistant_objects" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "model_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "provider_id" TEXT NOT NULL,
    "snapshot" JSONB,
    "thread_id" TEXT,
    "request_id" TEXT,
    "key_id" TEXT,
    "hold" JSONB,
    "usage_recorded_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assistant_objects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "assistant_objects_tenant_id_kind_created_at_idx" ON "assistant_objects"("tenant_id", "kind", "created_at");
