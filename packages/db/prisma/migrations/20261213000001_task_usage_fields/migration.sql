-- The x-request-id a task's client sent, carried to the task's usage record when it ends.
ALTER TABLE "media_tasks" ADD COLUMN "client_request_id" TEXT;
ALTER TABLE "music_tasks" ADD COLUMN "client_request_id" TEXT;

-- When a music task's hold was ended and its usage record published: a task that ended without it is
-- billed again by its next poll round.
ALTER TABLE "music_tasks" ADD COLUMN "billed_at" TIMESTAMP(3);
