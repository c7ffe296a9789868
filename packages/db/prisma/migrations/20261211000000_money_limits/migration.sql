-- AlterTable
ALTER TABLE "assistant_objects" ADD COLUMN     "stored_bytes" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "stored_tokens" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "tenant_storage" (
    "tenant_id" UUID NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_storage_pkey" PRIMARY KEY ("tenant_id")
);

-- Files uploaded before the quota count toward it.
INSERT INTO "tenant_storage" ("tenant_id", "bytes")
SELECT "tenant_id", SUM("bytes")::bigint FROM "files" WHERE "purpose" NOT IN ('batch_output') GROUP BY "tenant_id";
