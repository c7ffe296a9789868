-- AlterTable
ALTER TABLE "models" ADD COLUMN     "cache_write_micros_per_mtok" BIGINT,
ADD COLUMN     "cached_input_micros_per_mtok" BIGINT;
