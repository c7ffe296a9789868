-- A channel whose media tasks pass the vendor a callback URL (and poll only as a safety net).
ALTER TABLE "channels" ADD COLUMN "callbacks" BOOLEAN NOT NULL DEFAULT false;
