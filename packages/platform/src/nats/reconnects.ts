import type { NatsConnection } from 'nats';

/**
 * Calls `listener` each time the connection comes back after a loss. Broadcasts sent while it was
 * down are gone, so a cache fed by them must forget what it holds. Returns a function that stops watching.
 */
export function onReconnect(connection: NatsConnection, listener: () => void): () => void {
  let stopped = false;
  void (async () => {
    for await (const status of connection.status()) {
      if (stopped) break;
      if (status.type === 'reconnect') listener();
    }
  })().catch(() => undefined);
  return () => {
    stopped = true;
  };
}
