-- One usage record per billable unit of every kind: what it bills (chat, batch_line, media_task,
-- music_task, assistants_run, images, audio, embeddings, moderations), the task, batch or run it belongs
-- to, the units it metered beyond tokens, and what its own settlement charged when its publisher ended
-- the hold itself (tasks).
ALTER TABLE "usage_records" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'chat';
ALTER TABLE "usage_records" ADD COLUMN "subject_id" TEXT;
ALTER TABLE "usage_records" ADD COLUMN "cached_tokens" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "usage_records" ADD COLUMN "seconds" DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE "usage_records" ADD COLUMN "images" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "usage_records" ADD COLUMN "tasks" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "usage_records" ADD COLUMN "cost_micros" BIGINT;

UPDATE "usage_records" SET "kind" = 'assistants_run' WHERE "route" LIKE '%.threads.runs%';
UPDATE "usage_records" SET "kind" = 'assistants' WHERE "kind" = 'chat' AND ("route" LIKE '%.assistants%' OR "route" LIKE '%.threads%');
UPDATE "usage_records" SET "kind" = 'batch_line', "subject_id" = "client_request_id"
 WHERE "client_request_id" LIKE 'batch\_%' AND "request_id" LIKE "client_request_id" || '-%';
UPDATE "usage_records" SET "kind" = 'images' WHERE "kind" = 'chat' AND "route" LIKE '%.images.%';
UPDATE "usage_records" SET "kind" = 'audio' WHERE "kind" = 'chat' AND "route" LIKE '%.audio.%';
UPDATE "usage_records" SET "kind" = 'embeddings' WHERE "kind" = 'chat' AND "route" LIKE '%.embeddings';

CREATE INDEX "usage_records_tenant_id_subject_id_idx" ON "usage_records"("tenant_id", "subject_id");
-- Reconciliation's per-request charges: a tenant's entries grouped by request without visiting the heap.
CREATE INDEX "ledger_entries_tenant_id_request_id_idx" ON "ledger_entries"("tenant_id", "request_id") INCLUDE ("amount_micros", "kind", "pool");
