import { CacheChangedEvent, SUBJECTS } from '@gateway/contracts';
import { onReconnect, type NatsBus } from '@gateway/platform';
import { Logger } from '@nestjs/common';
import type { LocalCacheIndex } from './local-cache-index';
import type { ResponseCacheStore } from './response-cache.store';

/**
 * Keeps a process's index in step with the store: every process's stores and purges as they are broadcast,
 * and the store read whole at start and after a reconnection (broadcasts may have been missed meanwhile).
 * Until a read completes the index does not answer, and lookups read Redis.
 */
export class CacheIndexFollower {
  private readonly logger = new Logger(CacheIndexFollower.name);
  private stop: () => void = () => undefined;
  private generation = 0;

  constructor(
    private readonly bus: NatsBus,
    private readonly store: ResponseCacheStore,
    readonly index: LocalCacheIndex,
  ) {}

  /** Subscribes first, then reads the store, so no entry stored meanwhile is missed. */
  async follow(): Promise<void> {
    const subscription = this.bus.subscribe(SUBJECTS.chat.cache.changed, (payload) => {
      const event = CacheChangedEvent.safeParse(payload);
      if (!event.success) return void this.reload();
      if (event.data.change === 'stored') this.index.add(event.data.tenantId, event.data.hash, event.data.expiresAt);
      else this.index.forgetTenant(event.data.tenantId);
    });
    const stopReconnects = onReconnect(this.bus.connection, () => void this.reload());
    this.stop = () => {
      subscription.unsubscribe();
      stopReconnects();
    };
    await this.reload();
  }

  close(): void {
    this.generation++;
    this.stop();
  }

  /** Tells every process (this one too) of an entry stored. */
  stored(tenantId: string, hash: string, expiresAt: number): void {
    this.bus.publish(SUBJECTS.chat.cache.changed, { change: 'stored', tenantId, hash, expiresAt } satisfies CacheChangedEvent);
  }

  /** Tells every process (this one too) that a tenant's entries are gone. */
  purged(tenantId: string): void {
    this.index.forgetTenant(tenantId);
    this.bus.publish(SUBJECTS.chat.cache.changed, { change: 'purged', tenantId } satisfies CacheChangedEvent);
  }

  private async reload(): Promise<void> {
    const generation = ++this.generation;
    this.index.reset();
    try {
      for await (const entry of this.store.entries()) {
        if (generation !== this.generation) return;
        this.index.add(entry.tenantId, entry.hash, entry.expiresAt);
      }
      if (generation === this.generation) this.index.loaded();
    } catch (error) {
      this.logger.warn(`the response cache index could not be read; lookups read Redis: ${(error as Error).message}`);
    }
  }
}
