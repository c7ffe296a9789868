import { ReadThroughCache, type ReadThroughCacheOptions } from './read-through-cache';

interface Account {
  id: string;
  tenant: string;
}

/** A source whose lookups answer only when the test says, counting the calls per key. */
function source() {
  const pending = new Map<string, Array<{ resolve: (value: Account | null) => void; reject: (error: Error) => void }>>();
  const calls: string[] = [];
  const load = (key: string) =>
    new Promise<Account | null>((resolve, reject) => {
      calls.push(key);
      pending.set(key, [...(pending.get(key) ?? []), { resolve, reject }]);
    });
  /** Answers the oldest open lookup of the key, or the newest. */
  const answer = async (key: string, value: Account | null, which: 'oldest' | 'newest' = 'oldest') => {
    const open = pending.get(key)!;
    (which === 'oldest' ? open.shift() : open.pop())!.resolve(value);
    await flush();
  };
  const fail = async (key: string, error: Error) => {
    pending.get(key)!.shift()!.reject(error);
    await flush();
  };
  return { load, calls, answer, fail };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const account = (id: string, tenant = 't1'): Account => ({ id, tenant });

describe('ReadThroughCache', () => {
  let now = 1_000_000;
  let src: ReturnType<typeof source>;
  const cache = (options: Partial<ReadThroughCacheOptions<Account | null>> = {}) =>
    new ReadThroughCache<Account | null>({
      load: src.load,
      ttlMs: 60_000,
      negativeTtlMs: 5_000,
      maxEntries: 100,
      tagsOf: (value) => [value.tenant],
      now: () => now,
      ...options,
    });

  beforeEach(() => {
    now = 1_000_000;
    src = source();
  });

  describe('coalescing', () => {
    it('runs one lookup per key however many callers miss at once, and answers them all', async () => {
      const c = cache();
      const waiting = [c.get('a'), c.get('a'), c.get('a'), c.get('b')];
      expect(src.calls).toEqual(['a', 'b']);
      await src.answer('a', account('a'));
      await src.answer('b', account('b'));
      await expect(Promise.all(waiting)).resolves.toEqual([account('a'), account('a'), account('a'), account('b')]);
    });

    it('answers a hit synchronously from memory, without a lookup', async () => {
      const c = cache();
      const first = c.get('a');
      await src.answer('a', account('a'));
      await first;
      expect(c.get('a')).toEqual(account('a'));
      expect(c.peek('a')).toEqual(account('a'));
      expect(src.calls).toEqual(['a']);
    });

    it('caches no failure: every waiter sees it and the next caller looks up again', async () => {
      const c = cache();
      const waiting = [c.get('a'), c.get('a')];
      await src.fail('a', new Error('accounts timed out'));
      for (const w of waiting) await expect(w).rejects.toThrow('accounts timed out');
      expect(c.peek('a')).toBeUndefined();
      const retry = c.get('a');
      expect(src.calls).toEqual(['a', 'a']);
      await src.answer('a', account('a'));
      await expect(retry).resolves.toEqual(account('a'));
    });

    it('passes on a loader that throws before it returns a promise', async () => {
      const c = cache({
        load: () => {
          throw new Error('bad key');
        },
      });
      await expect(c.get('a')).rejects.toThrow('bad key');
      expect(c.size).toBe(0);
    });
  });

  describe('expiry', () => {
    it('serves a value until its TTL passes, then looks it up again', async () => {
      const c = cache();
      const first = c.get('a');
      await src.answer('a', account('a'));
      await first;
      now += 59_999;
      expect(c.peek('a')).toEqual(account('a'));
      now += 1;
      expect(c.peek('a')).toBeUndefined();
      expect(c.size).toBe(0);
      const again = c.get('a');
      expect(src.calls).toEqual(['a', 'a']);
      await src.answer('a', account('a', 't2'));
      await expect(again).resolves.toEqual(account('a', 't2'));
    });
  });

  describe('negative entries', () => {
    it('remembers a null answer for the negative TTL only', async () => {
      const c = cache();
      const first = c.get('ghost');
      await src.answer('ghost', null);
      await expect(first).resolves.toBeNull();
      expect(c.get('ghost')).toBeNull();
      expect(c.peek('ghost')).toBeNull();
      now += 5_000;
      expect(c.peek('ghost')).toBeUndefined();
      expect(c.size).toBe(0);
    });

    it('remembers none with a negative TTL of 0', async () => {
      const c = cache({ negativeTtlMs: 0 });
      const first = c.get('ghost');
      await src.answer('ghost', null);
      await expect(first).resolves.toBeNull();
      expect(c.peek('ghost')).toBeUndefined();
      expect(c.size).toBe(0);
    });

    it('replaces a null answer by a value when the key comes to exist, and is dropped by key', async () => {
      const c = cache();
      const first = c.get('a');
      await src.answer('a', null);
      await first;
      c.drop(['a']);
      expect(c.peek('a')).toBeUndefined();
      const second = c.get('a');
      await src.answer('a', account('a'));
      await second;
      expect(c.peek('a')).toEqual(account('a'));
      expect(c.size).toBe(1);
    });
  });

  describe('LRU bounds', () => {
    async function fill(c: ReadThroughCache<Account | null>, key: string, value: Account | null) {
      const pending = c.get(key);
      await src.answer(key, value);
      await pending;
    }

    it('evicts the least recently used value, a read counting as a use, and unindexes it', async () => {
      const c = cache({ maxEntries: 2 });
      await fill(c, 'a', account('a', 'ta'));
      await fill(c, 'b', account('b', 'tb'));
      c.peek('a');
      await fill(c, 'c', account('c', 'tc'));
      expect(c.peek('b')).toBeUndefined();
      expect(c.peek('a')).toEqual(account('a', 'ta'));
      c.dropTagged(['ta', 'tc']);
      expect(c.size).toBe(0);
    });

    it('bounds null answers apart, so a flood of unknown keys never evicts a known one', async () => {
      const c = cache({ maxEntries: 3, maxNegativeEntries: 10 });
      await fill(c, 'good', account('good'));
      for (let i = 0; i < 200; i++) await fill(c, `unknown-${i}`, null);
      expect(c.size).toBe(11);
      expect(c.peek('good')).toEqual(account('good'));
      expect(c.peek('unknown-199')).toBeNull();
      expect(c.peek('unknown-0')).toBeUndefined();
    });
  });

  describe('invalidation', () => {
    it('drops values by key, by tag and all at once', async () => {
      const c = cache();
      for (const [key, tenant] of [
        ['a1', 'a'],
        ['a2', 'a'],
        ['b1', 'b'],
        ['c1', 'c'],
      ] as const) {
        const pending = c.get(key);
        await src.answer(key, account(key, tenant));
        await pending;
      }
      c.drop(['b1']);
      expect(c.peek('b1')).toBeUndefined();
      c.dropTagged(['a']);
      expect([c.peek('a1'), c.peek('a2')]).toEqual([undefined, undefined]);
      expect(c.peek('c1')).toEqual(account('c1', 'c'));
      c.clear();
      expect(c.size).toBe(0);
    });

    it('re-indexes a value whose tag changed', async () => {
      const c = cache();
      for (const tenant of ['a', 'b']) {
        c.drop(['k']);
        const pending = c.get('k');
        await src.answer('k', account('k', tenant));
        await pending;
      }
      c.dropTagged(['a']);
      expect(c.peek('k')).toEqual(account('k', 'b'));
      c.dropTagged(['b']);
      expect(c.peek('k')).toBeUndefined();
    });

    it.each([
      ['by key', (c: ReadThroughCache<Account | null>) => c.drop(['a'])],
      ['by tag', (c: ReadThroughCache<Account | null>) => c.dropTagged(['t1'])],
      ['all at once', (c: ReadThroughCache<Account | null>) => c.clear()],
    ])('does not cache a lookup that an invalidation %s overtook, and later callers look up afresh', async (_, invalidate) => {
      const c = cache();
      const stale = c.get('a');
      invalidate(c);
      const fresh = c.get('a');
      expect(src.calls).toEqual(['a', 'a']);
      await src.answer('a', account('a', 't1'));
      await expect(stale).resolves.toEqual(account('a', 't1'));
      expect(c.peek('a')).toBeUndefined();
      await src.answer('a', account('a', 't2'));
      await expect(fresh).resolves.toEqual(account('a', 't2'));
      expect(c.peek('a')).toEqual(account('a', 't2'));
    });

    it('keeps the fresh answer when the overtaken lookup answers after it', async () => {
      const c = cache();
      const stale = c.get('a');
      c.drop(['a']);
      const fresh = c.get('a');
      await src.answer('a', account('a', 'new'), 'newest');
      await expect(fresh).resolves.toEqual(account('a', 'new'));
      await src.answer('a', account('a', 'old'));
      await expect(stale).resolves.toEqual(account('a', 'old'));
      expect(c.peek('a')).toEqual(account('a', 'new'));
    });

    it('does not cache a negative answer that an invalidation overtook', async () => {
      const c = cache();
      const stale = c.get('new-key');
      c.drop(['new-key']);
      await src.answer('new-key', null);
      await stale;
      expect(c.peek('new-key')).toBeUndefined();
    });

    it('lets an invalidation of other keys leave a lookup by key alone', async () => {
      const c = cache();
      const pending = c.get('a');
      c.drop(['b']);
      expect(c.get('a')).toBe(pending);
      await src.answer('a', account('a'));
      await pending;
      expect(c.peek('a')).toEqual(account('a'));
    });
  });
});
