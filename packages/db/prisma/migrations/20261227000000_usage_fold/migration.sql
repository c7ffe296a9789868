-- Usage summed per tenant, hour, kind, model and key, with what the ledger charged those records, folded
-- in by the accounts service off the request path. Every record and entry keeps the id of the transaction
-- that wrote it; a fold takes the rows below the oldest transaction still running, so none is skipped.

-- AlterTable
ALTER TABLE "usage_records" ADD COLUMN "written_xid" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text)::bigint;
ALTER TABLE "ledger_entries" ADD COLUMN "written_xid" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text)::bigint;

-- CreateIndex
CREATE INDEX "usage_records_written_xid_idx" ON "usage_records" USING BRIN ("written_xid") WITH (autosummarize = on);
CREATE INDEX "ledger_entries_written_xid_idx" ON "ledger_entries" USING BRIN ("written_xid") WITH (autosummarize = on);

-- CreateTable
CREATE TABLE "usage_hourly" (
    "tenant_id" UUID NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "model_id" TEXT NOT NULL,
    "key_id" UUID NOT NULL,
    "requests" BIGINT NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "cached_tokens" BIGINT NOT NULL DEFAULT 0,
    "seconds" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "images" BIGINT NOT NULL DEFAULT 0,
    "tasks" BIGINT NOT NULL DEFAULT 0,
    "charged_micros" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_hourly_pkey" PRIMARY KEY ("tenant_id","hour","kind","model_id","key_id")
);

-- CreateTable
CREATE TABLE "usage_fold" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "folded_xid" BIGINT NOT NULL DEFAULT 0,
    "folded_at" TIMESTAMP(3),

    CONSTRAINT "usage_fold_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "usage_fold_one_row" CHECK ("id" = 1)
);

INSERT INTO "usage_fold" ("id", "folded_xid") VALUES (1, 0);

-- Statistics for the new column at once: a summary's scan of what is not folded yet relies on them.
ANALYZE "usage_records" ("written_xid");
ANALYZE "ledger_entries" ("written_xid");
