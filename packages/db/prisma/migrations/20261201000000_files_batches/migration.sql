-- CreateTable
CREATE TABLE "files" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "filename" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "content_type" TEXT NOT NULL,
    "object_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processed',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "key_id" UUID NOT NULL,
    "key_kind" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "input_file_id" TEXT NOT NULL,
    "completion_window" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "errors" JSONB,
    "metadata" JSONB,
    "output_file_id" TEXT,
    "error_file_id" TEXT,
    "total" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "in_progress_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,
    "finalizing_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "failed_at" TIMESTAMP(3),
    "expired_at" TIMESTAMP(3),
    "cancelling_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batch_lines" (
    "batch_id" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "custom_id" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" JSONB,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "batch_lines_pkey" PRIMARY KEY ("batch_id","line")
);

-- CreateIndex
CREATE INDEX "files_tenant_id_created_at_idx" ON "files"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "batches_tenant_id_created_at_idx" ON "batches"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "batch_lines_batch_id_status_idx" ON "batch_lines"("batch_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "batch_lines_batch_id_custom_id_key" ON "batch_lines"("batch_id", "custom_id");

-- AddForeignKey
ALTER TABLE "batch_lines" ADD CONSTRAINT "batch_lines_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
