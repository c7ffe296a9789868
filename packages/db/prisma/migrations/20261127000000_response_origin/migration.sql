-- Where a stored response came from: the upstream's own id and the channel that holds its conversation,
-- so a request naming it in previous_response_id goes back to that channel with that id.
ALTER TABLE "stored_responses" ADD COLUMN "upstream_id" TEXT;
ALTER TABLE "stored_responses" ADD COLUMN "channel_id" TEXT;
