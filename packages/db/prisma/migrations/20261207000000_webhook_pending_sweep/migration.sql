-- The webhook sweep's index: pending deliveries by the time they fell due (one never attempted, since it was
-- recorded). Partial and on an expression, which the Prisma schema cannot declare, so it lives here alone.
CREATE INDEX "webhook_deliveries_pending_due_idx" ON "webhook_deliveries" ((COALESCE("next_attempt_at", "created_at")), "id") WHERE "status" = 'pending';
