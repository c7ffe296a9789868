import Redis, { type RedisOptions } from 'ioredis';

/** How long an ended client waits before it connects again, each time. */
export const REVIVE_DELAY_MS = 500;

/**
 * A Redis client that only ends when the gateway closes it. ioredis leaves a client ended for good, every
 * command failing with "Connection is closed.", when its connector is told to disconnect while a reconnect
 * is still resolving where to go: under Sentinel, a failover message from the previous link's detector
 * arriving while the client reconnects after its primary died. A client that ends without `disconnect()`
 * or `quit()` connects again after REVIVE_DELAY_MS, and again after each failed attempt. Duplicates (the
 * queues' blocking connections) are made the same way.
 */
export class RevivingRedis extends Redis {
  private closedOnPurpose = false;

  constructor(options: RedisOptions) {
    super(options);
    this.on('end', () => {
      if (this.closedOnPurpose) return;
      setTimeout(() => {
        if (!this.closedOnPurpose && this.status === 'end') this.connect().catch(() => undefined);
      }, REVIVE_DELAY_MS).unref();
    });
  }

  override disconnect(reconnect = false): void {
    if (!reconnect) this.closedOnPurpose = true;
    super.disconnect(reconnect);
  }

  override quit(callback?: (error?: Error | null, result?: 'OK') => void): Promise<'OK'> {
    this.closedOnPurpose = true;
    return super.quit(callback);
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new RevivingRedis({ ...this.options, ...override });
  }
}
