import type { LeaseClose } from '@gateway/contracts';
import type { WalletStore } from '../redis/wallet.store';
import { LeaseBook } from './lease-book';

const TTL_MS = 60_000;

/** A wallet that grants every lease and records what the book renews and closes. */
function fakeWallet() {
  const renewals: Array<{ ids: string[]; deadlineMs: number; at: number }> = [];
  const closes: LeaseClose[] = [];
  const wallet = {
    reserve: jest.fn(async () => ({ status: 'reserved' as const })),
    renewHolds: jest.fn(async (ids: readonly string[], deadlineMs: number) => void renewals.push({ ids: [...ids], deadlineMs, at: Date.now() })),
    closeLeases: jest.fn(async (list: readonly LeaseClose[]) => void closes.push(...list)),
  };
  return { wallet: wallet as unknown as WalletStore, renewals, closes, reserve: wallet.reserve };
}

describe('the lease book', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('opens a lease with a hold of the lease lifetime and renews it while a request runs under it', async () => {
    const { wallet, renewals, reserve } = fakeWallet();
    const book = new LeaseBook(wallet, async () => undefined, { requestsPerLease: 4, maxAgeMs: 30_000, idleMs: 2000, holdTtlMs: TTL_MS });
    const ticket = await book.admit('t1', 100n);
    expect(ticket).not.toBeNull();
    expect(reserve).toHaveBeenCalledWith(expect.objectContaining({ tenantId: 't1', amount: 400n, holdTtlMs: TTL_MS, lease: true }));

    // A request longer than the hold's lifetime: the hold is renewed every third of it, to a lifetime ahead.
    await jest.advanceTimersByTimeAsync(3 * TTL_MS);
    expect(renewals.length).toBeGreaterThanOrEqual(8);
    let previous = 1_000_000;
    for (const { ids, deadlineMs, at } of renewals) {
      expect(ids).toEqual([ticket!.lease.id]);
      expect(deadlineMs).toBe(at + TTL_MS);
      expect(at - previous).toBeLessThanOrEqual(TTL_MS / 3);
      previous = at;
    }
    expect(renewals.at(-1)!.deadlineMs).toBeGreaterThan(Date.now());
  });

  it('stops renewing a lease once it is closed, so a lease nobody closes is left to expire', async () => {
    const { wallet, renewals, closes } = fakeWallet();
    const book = new LeaseBook(wallet, async () => undefined, { requestsPerLease: 4, maxAgeMs: 30_000, idleMs: 2000, holdTtlMs: TTL_MS });
    const ticket = await book.admit('t1', 100n);
    book.end(ticket!, 80n);
    await jest.advanceTimersByTimeAsync(5000);
    expect(closes).toEqual([{ lease: ticket!.lease.id, charged: '80' }]);
    const renewedBefore = renewals.length;
    await jest.advanceTimersByTimeAsync(3 * TTL_MS);
    expect(renewals.slice(renewedBefore).every(({ ids }) => !ids.includes(ticket!.lease.id))).toBe(true);
  });

  it('keeps renewing when a renewal fails, so a short Redis fault does not drop a live lease', async () => {
    const { wallet, renewals } = fakeWallet();
    const renew = wallet.renewHolds as jest.Mock;
    const book = new LeaseBook(wallet, async () => undefined, { requestsPerLease: 4, maxAgeMs: 30_000, idleMs: 2000, holdTtlMs: TTL_MS });
    await book.admit('t1', 100n);
    renew.mockRejectedValueOnce(new Error('Connection is closed.'));
    await jest.advanceTimersByTimeAsync(TTL_MS);
    expect(renew.mock.calls.length).toBe(3);
    expect(renewals).toHaveLength(2);
  });
});
