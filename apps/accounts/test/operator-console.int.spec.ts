import {
  ApplyResult,
  ConsoleCatalogPage,
  ConsoleDeadLetter,
  ConsoleDeadLetterPage,
  ConsoleQueuePage,
  ConsoleReconcileStatus,
  ReconcileReport,
  SUBJECTS,
} from '@gateway/contracts';
import { DeadLetterStream, QueueFactory, queuePrefix } from '@gateway/platform';
import { catalogConfig, startAccountsHarness, type AccountsHarness } from './accounts.harness';

/** What the operator console asks accounts: the catalog, dead letters a page at a time, queue depths, reconciliation. */
describe('the operator console reads of accounts', () => {
  let h: AccountsHarness;

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_operator_console');
    await h.bus.request(SUBJECTS.accounts.config.apply, catalogConfig(), ApplyResult);
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
  });

  it('pages the catalog with every channel in routing order, its host only and never its key', async () => {
    const first = await h.bus.request(SUBJECTS.accounts.console.catalog, { limit: 2 }, ConsoleCatalogPage);
    expect(first.total).toBe(3);
    expect(first.data.map((m) => m.id)).toEqual(['acme-private', 'sandbox-gpt']);
    expect(first.data[0]).toMatchObject({ isPublic: false, capability: 'chat' });
    expect(first.data[0]!.channels.map((c) => [c.upstreamModel, c.priority, c.host])).toEqual([
      ['gpt-b', 1, '127.0.0.1:9100'],
      ['gpt-a', 10, '127.0.0.1:9100'],
    ]);
    expect(JSON.stringify(first)).not.toMatch(/apiKey|\/v1/);
    const second = await h.bus.request(SUBJECTS.accounts.console.catalog, { offset: 2, limit: 2 }, ConsoleCatalogPage);
    expect(second.data.map((m) => m.id)).toEqual(['sandbox-embed']);
    const found = await h.bus.request(SUBJECTS.accounts.console.catalog, { search: 'EMBED' }, ConsoleCatalogPage);
    expect(found.data.map((m) => m.id)).toEqual(['sandbox-embed']);
  });

  it('pages dead letters after a cursor and shows one in full with its control characters escaped', async () => {
    const stream = new DeadLetterStream(h.bus.connection, h.bus.prefix);
    await stream.ensure();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        await stream.add({
          consumer: i === 2 ? 'ledger' : 'usage',
          source: 'usage-stream',
          error: `refused ${i}`,
          deliveries: 5,
          at: new Date().toISOString(),
          payload: `{"n":${i},"bad":"\u001b[2J"}`,
        }),
      );
    }
    const first = await h.bus.request(SUBJECTS.accounts.console.deadLetters, { consumer: 'usage', limit: 2 }, ConsoleDeadLetterPage);
    expect(first.data.map((d) => d.id)).toEqual([ids[0], ids[1]]);
    expect(first.next).toBe(ids[1]);
    expect(first.stored).toEqual({ usage: 4, ledger: 1 });
    const second = await h.bus.request(SUBJECTS.accounts.console.deadLetters, { consumer: 'usage', limit: 2, after: first.next }, ConsoleDeadLetterPage);
    expect(second.data.map((d) => d.id)).toEqual([ids[3], ids[4]]);
    expect(second.next).toBeNull();
    const all = await h.bus.request(SUBJECTS.accounts.console.deadLetters, { limit: 10 }, ConsoleDeadLetterPage);
    expect(all.data.map((d) => d.id)).toEqual(ids);

    const one = await h.bus.request(SUBJECTS.accounts.console.deadLetter, { id: ids[2] }, ConsoleDeadLetter);
    expect(one).toMatchObject({ id: ids[2], consumer: 'ledger', error: 'refused 2', payload: '{"n":2,"bad":"\\u001b[2J"}' });
    await stream.remove(ids[2]!);
    await expect(h.bus.request(SUBJECTS.accounts.console.deadLetter, { id: ids[2] }, ConsoleDeadLetter)).rejects.toMatchObject({ code: 'not_found' });
  });

  it("lists the depth of every service's queues in this namespace", async () => {
    const media = new QueueFactory({ redis: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: queuePrefix('media', h.bus.prefix) });
    try {
      await media.queue('media-poll').add('poll', { taskId: 't1' });
      await media.queue('media-poll').add('poll', { taskId: 't2' }, { delay: 60_000 });
      const page = await h.bus.request(SUBJECTS.accounts.console.queues, {}, ConsoleQueuePage);
      // Accounts hands alert webhooks to the shared delivery queue, so that queue is there too, empty.
      expect(page.total).toBe(2);
      expect(page.data).toEqual([
        expect.objectContaining({ role: 'media', queue: 'media-poll', waiting: 1, delayed: 1, active: 0, failed: 0 }),
        expect.objectContaining({ role: 'webhooks', queue: 'webhook-deliveries', waiting: 0, delayed: 0, active: 0, failed: 0 }),
      ]);
    } finally {
      await media.close();
    }
  });

  it('keeps the last reconciliation of every tenant, from the console or the admin API, and none of one tenant', async () => {
    expect(await h.bus.request(SUBJECTS.accounts.console.reconcileLast, {}, ConsoleReconcileStatus)).toEqual({ last: null, offset: 0, limit: 20 });
    await h.bus.request(SUBJECTS.accounts.money.reconcile, { tenant: 'acme' }, ReconcileReport);
    expect((await h.bus.request(SUBJECTS.accounts.console.reconcileLast, {}, ConsoleReconcileStatus)).last).toBeNull();

    const report = await h.bus.request(SUBJECTS.accounts.money.reconcile, { all: true }, ReconcileReport);
    const kept = await h.bus.request(SUBJECTS.accounts.console.reconcileLast, {}, ConsoleReconcileStatus);
    expect(kept.last).toMatchObject({ ok: report.ok, checked: report.checked, failingTotal: report.tenants.filter((t) => !t.ok).length });

    const run = await h.bus.request(SUBJECTS.accounts.console.reconcileRun, { limit: 5 }, ConsoleReconcileStatus);
    expect(run.last!.checked).toBe(2);
    expect(Date.parse(run.last!.at)).toBeGreaterThanOrEqual(Date.parse(kept.last!.at));
    expect(await h.bus.request(SUBJECTS.accounts.console.reconcileLast, { limit: 5 }, ConsoleReconcileStatus)).toEqual(run);
  });
});
