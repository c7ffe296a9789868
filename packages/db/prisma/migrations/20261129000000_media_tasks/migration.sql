-- CreateTable
CREATE TABLE "media_tasks" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "query_kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "channel_id" TEXT,
    "protocol" TEXT NOT NULL,
    "upstream_task_id" TEXT,
    "state" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "request" JSONB NOT NULL,
    "results" JSONB,
    "usage" JSONB,
    "error_code" TEXT,
    "error_message" TEXT,
    "billing_hold" JSONB,
    "polls" INTEGER NOT NULL DEFAULT 0,
    "deadline_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "media_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "media_tasks_tenant_id_created_at_idx" ON "media_tasks"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "media_tasks_state_deadline_at_idx" ON "media_tasks"("state", "deadline_at");

