-- AlterTable
ALTER TABLE "batches" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'lines',
ADD COLUMN     "native_channel_id" TEXT,
ADD COLUMN     "native_model_id" TEXT,
ADD COLUMN     "upstream_batch_id" TEXT,
ADD COLUMN     "upstream_completed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "upstream_error_file_id" TEXT,
ADD COLUMN     "upstream_failed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "upstream_input_file_id" TEXT,
ADD COLUMN     "upstream_output_file_id" TEXT,
ADD COLUMN     "upstream_status" TEXT;
