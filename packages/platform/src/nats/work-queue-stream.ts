import { nanos, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import { ensureStream } from './ensure-stream';

/**
 * Makes sure a durable work-queue stream (file storage: it survives a server restart) exists for
 * `subject`. Publishers and consumers both call it at start-up, in whichever order they start; a
 * replica that loses the race to create it finds it there.
 */
export async function ensureWorkQueueStream(connection: NatsConnection, stream: string, subject: string, maxAgeMs: number): Promise<void> {
  await ensureStream(connection, {
    name: stream,
    subjects: [subject],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    max_age: nanos(maxAgeMs),
  });
}
