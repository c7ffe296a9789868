-- AlterTable
ALTER TABLE "assistant_objects" ADD COLUMN     "sweep_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "assistant_objects_kind_usage_recorded_at_created_at_idx" ON "assistant_objects"("kind", "usage_recorded_at", "created_at");
