-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "assistants" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "native_batch" BOOLEAN NOT NULL DEFAULT false;
