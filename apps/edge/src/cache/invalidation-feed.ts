import { InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';

export type InvalidationListener = (event: InvalidationEvent | 'all') => void;

/**
 * Feeds a cache the accounts service's invalidation broadcasts, and a full flush ('all') whenever the
 * NATS connection comes back: broadcasts sent while disconnected are lost, so nothing cached before may be trusted.
 * Returns a function that stops the feed.
 */
export function followInvalidations(bus: NatsBus, listener: InvalidationListener): () => void {
  const subscription = bus.subscribe(SUBJECTS.accounts.invalidated, (payload) => {
    const event = InvalidationEvent.safeParse(payload);
    listener(event.success ? event.data : 'all');
  });
  let stopped = false;
  void (async () => {
    for await (const status of bus.connection.status()) {
      if (stopped) break;
      if (status.type === 'reconnect') listener('all');
    }
  })().catch(() => undefined);
  return () => {
    stopped = true;
    subscription.unsubscribe();
  };
}
