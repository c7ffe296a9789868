import { InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import { onReconnect, type NatsBus } from '@gateway/platform';

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
  const stopWatching = onReconnect(bus.connection, () => listener('all'));
  return () => {
    stopWatching();
    subscription.unsubscribe();
  };
}
