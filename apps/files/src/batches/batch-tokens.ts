export const BATCH_LINE_RUNNER = Symbol('BATCH_LINE_RUNNER');
export const TENANT_SLOTS = Symbol('TENANT_SLOTS');
export const BATCH_QUEUES = Symbol('BATCH_QUEUES');
export const BATCH_REDIS = Symbol('BATCH_REDIS');
export const NATIVE_BACKOFF = Symbol('NATIVE_BACKOFF');

/** The queue batch jobs wait in: one job moves one batch as far as it can go. */
export const BATCH_QUEUE = 'batches';
