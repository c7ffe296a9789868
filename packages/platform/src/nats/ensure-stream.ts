import type { NatsConnection, StreamConfig } from 'nats';
import { streamReplicas } from './stream-replicas';

/**
 * Makes sure a stream exists with `NATS_STREAM_REPLICAS` copies: created when missing (a replica that loses
 * the race to create it finds it there), its copies raised or lowered when the setting changed.
 */
export async function ensureStream(connection: NatsConnection, config: Partial<StreamConfig> & { name: string }): Promise<void> {
  const jsm = await connection.jetstreamManager();
  const replicas = streamReplicas();
  const existing = await jsm.streams.info(config.name).catch(() => null);
  if (existing) {
    if (existing.config.num_replicas !== replicas) await jsm.streams.update(config.name, { ...existing.config, num_replicas: replicas });
    return;
  }
  await jsm.streams.add({ ...config, num_replicas: replicas }).catch(async (error: unknown) => {
    await jsm.streams.info(config.name).catch(() => Promise.reject(error));
  });
}
