-- Music tasks, and the outbound webhooks component: per-tenant signing secrets, one delivery per
-- (subject, event type) carrying the stable webhook-id, and every attempt made.

-- CreateTable
CREATE TABLE "music_tasks" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "query_kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "upstream_task_id" TEXT,
    "token_hash" TEXT NOT NULL,
    "callback_url" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "result" JSONB,
    "error_code" INTEGER,
    "error_message" TEXT,
    "hold" JSONB,
    "deadline_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "music_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_secrets" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "subject_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "response_status" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL,
    "next_attempt_at" TIMESTAMP(3),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "music_tasks_token_hash_key" ON "music_tasks"("token_hash");

-- CreateIndex
CREATE INDEX "music_tasks_tenant_id_created_at_idx" ON "music_tasks"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_secrets_tenant_id_created_at_idx" ON "webhook_secrets"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_subject_id_seq_idx" ON "webhook_deliveries"("subject_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_subject_id_event_type_key" ON "webhook_deliveries"("subject_id", "event_type");

-- CreateIndex
CREATE INDEX "webhook_attempts_delivery_id_attempt_idx" ON "webhook_attempts"("delivery_id", "attempt");

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
