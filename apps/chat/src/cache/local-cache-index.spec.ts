import { LocalCacheIndex } from './local-cache-index';

const answer = (text: string) => ({ answer: { text }, prompt: 1, completion: 1 });

describe('LocalCacheIndex', () => {
  it('answers nothing until the store was read whole, then rules misses out', () => {
    const index = new LocalCacheIndex({ maxEntries: 10, maxValueBytes: 100 });
    index.add('t1', 'h1', Date.now() + 60_000);
    expect(index.presence('t1', 'h1')).toBe('unknown');
    expect(index.presence('t1', 'h2')).toBe('unknown');
    index.loaded();
    expect(index.presence('t1', 'h1')).toBe('present');
    expect(index.presence('t1', 'h2')).toBe('absent');
    expect(index.presence('t2', 'h1')).toBe('absent');
  });

  it('drops an entry once it has expired, and keeps no expired answer', () => {
    const index = new LocalCacheIndex({ maxEntries: 10, maxValueBytes: 100 });
    index.loaded();
    const now = 1_000_000;
    index.add('t1', 'h1', now + 10);
    index.keepValue('t1', 'h1', answer('a'), 10, now + 10);
    expect(index.presence('t1', 'h1', now + 9)).toBe('present');
    expect(index.value('t1', 'h1', now + 9)).toEqual(answer('a'));
    expect(index.presence('t1', 'h1', now + 10)).toBe('absent');
    expect(index.value('t1', 'h1', now + 10)).toBeNull();
  });

  it('stops answering past its entry bound, so every lookup reads the store, until it is read again', () => {
    const index = new LocalCacheIndex({ maxEntries: 2, maxValueBytes: 100 });
    index.loaded();
    const later = Date.now() + 60_000;
    index.add('t1', 'h1', later);
    index.add('t1', 'h2', later);
    index.add('t1', 'h1', later);
    expect(index.answering).toBe(true);
    index.add('t1', 'h3', later);
    expect(index.answering).toBe(false);
    expect(index.presence('t1', 'h9')).toBe('unknown');
    index.reset();
    index.loaded();
    expect(index.presence('t1', 'h1')).toBe('absent');
  });

  it('keeps the most recently used answers within its bytes, and none larger than them all', () => {
    const index = new LocalCacheIndex({ maxEntries: 10, maxValueBytes: 30 });
    const later = Date.now() + 60_000;
    index.keepValue('t1', 'a', answer('a'), 10, later);
    index.keepValue('t1', 'b', answer('b'), 10, later);
    index.keepValue('t1', 'c', answer('c'), 10, later);
    expect(index.value('t1', 'a')).not.toBeNull();
    index.keepValue('t1', 'd', answer('d'), 10, later);
    expect(['a', 'b', 'c', 'd'].map((h) => index.value('t1', h) !== null)).toEqual([true, false, true, true]);
    index.keepValue('t1', 'huge', answer('huge'), 31, later);
    expect(index.value('t1', 'huge')).toBeNull();
  });

  it('forgets one entry, or every entry and answer of one tenant only', () => {
    const index = new LocalCacheIndex({ maxEntries: 10, maxValueBytes: 100 });
    index.loaded();
    const later = Date.now() + 60_000;
    for (const [tenant, hash] of [
      ['t1', 'a'],
      ['t1', 'b'],
      ['t2', 'a'],
    ] as const) {
      index.add(tenant, hash, later);
      index.keepValue(tenant, hash, answer(tenant + hash), 10, later);
    }
    index.forget('t1', 'a');
    expect([index.presence('t1', 'a'), index.value('t1', 'a')]).toEqual(['absent', null]);
    index.forgetTenant('t1');
    expect([index.presence('t1', 'b'), index.value('t1', 'b')]).toEqual(['absent', null]);
    expect([index.presence('t2', 'a'), index.value('t2', 'a')]).toEqual(['present', answer('t2a')]);
  });
});
