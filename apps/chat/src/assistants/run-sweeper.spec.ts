import { GatewayError, type CatalogChannel, type UpstreamRun } from '@gateway/contracts';
import type { ChatEnv } from '../config/chat-env';
import type { AssistantObjectsRepository, RunRecord } from './assistant-objects.repository';
import type { AssistantsRouting } from './assistants-routing.service';
import type { AssistantsUpstream } from './assistants-upstream';
import type { RunBilling } from './run-billing';
import { RunSweeper } from './run-sweeper';

const SWEEP_MS = 1000;
const DEADLINE_MS = 60_000;

const channel = (id: string): CatalogChannel => ({
  id,
  providerId: 'p',
  protocol: 'openai',
  baseUrl: 'http://upstream.invalid/v1',
  apiKey: 'sk',
  upstreamModel: 'm',
  priority: 0,
  weight: 1,
  nativeBatch: false,
  assistants: true,
});

const run = (id: string, channelId: string, ageMs = 5000): RunRecord => ({
  id,
  kind: 'run',
  tenantId: 't',
  modelId: 'model',
  channelId,
  providerId: 'p',
  createdAt: new Date(Date.now() - ageMs),
  threadId: 'thread_1',
  requestId: `req_${id}`,
  keyId: 'key',
  hold: {},
  usageRecordedAt: null,
});

/**
 * The sweeper over leased batches (one per sweep), each run's upstream answer given by `answers` (an
 * error is thrown).
 */
function sweeperOver(batches: RunRecord[][], answers: Record<string, UpstreamRun | GatewayError>, channels = ['a', 'b']) {
  const deferred = new Map<string, number>();
  const observed: string[] = [];
  const expired: Array<[string, string]> = [];
  const asked: string[] = [];
  const objects = {
    leaseUnrecordedRuns: async () => batches.shift() ?? [],
    deferRun: async (id: string, at: Date) => void deferred.set(id, at.getTime() - Date.now()),
  } as unknown as AssistantObjectsRepository;
  const routing = {
    channelOf: async (home: { channelId: string }) => {
      if (!channels.includes(home.channelId)) throw new GatewayError('unavailable', 'gone');
      return channel(home.channelId);
    },
  } as unknown as AssistantsRouting;
  const upstream = {
    retrieveRun: async ({ runId }: { runId: string }) => {
      asked.push(runId);
      const answer = answers[runId]!;
      if (answer instanceof GatewayError) throw answer;
      return answer;
    },
  } as unknown as AssistantsUpstream;
  const billing = {
    observe: async (record: RunRecord) => void observed.push(record.id),
    expire: async (record: RunRecord, why: string) => (expired.push([record.id, why]), true),
  } as unknown as RunBilling;
  const env = { ASSISTANT_RUN_SWEEP_MS: SWEEP_MS, ASSISTANT_RUN_DEADLINE_MS: DEADLINE_MS } as ChatEnv;
  const sweeper = new RunSweeper(objects, routing, upstream, billing, env);
  return { sweeper, deferred, observed, expired, asked };
}

const status = (id: string, value: string): UpstreamRun => ({
  id,
  status: value,
  usage: value === 'completed' ? { prompt_tokens: 3, completion_tokens: 4 } : null,
});

describe('RunSweeper', () => {
  // The clock stands still, so a deferral is exact however long a sweep takes on a busy machine; every
  // timer stays real.
  beforeEach(() =>
    jest.useFakeTimers({
      now: new Date('2026-01-01T00:00:00Z'),
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    }),
  );
  afterEach(() => jest.useRealTimers());

  it('hands an ended run to billing and looks again at one still working, one period later', async () => {
    const { sweeper, observed, deferred, expired } = sweeperOver([[run('run_done', 'a'), run('run_working', 'a')]], {
      run_done: status('run_done', 'completed'),
      run_working: status('run_working', 'in_progress'),
    });
    expect(await sweeper.sweep()).toBe(2);
    expect(observed).toEqual(['run_done']);
    expect(deferred.get('run_working')).toBe(SWEEP_MS);
    expect(deferred.has('run_done')).toBe(false);
    expect(expired).toEqual([]);
  });

  it('looks at an older run less often', async () => {
    const { sweeper, deferred } = sweeperOver([[run('run_old', 'a', 30_000)]], { run_old: status('run_old', 'queued') });
    await sweeper.sweep();
    expect(deferred.get('run_old')).toBe(3000);
  });

  it('gives up a run still working at the deadline, and one its upstream no longer knows', async () => {
    const { sweeper, expired, observed } = sweeperOver([[run('run_late', 'a', DEADLINE_MS + 1), run('run_gone', 'a')]], {
      run_late: status('run_late', 'in_progress'),
      run_gone: new GatewayError('upstream_error', 'No run found', null, 404),
    });
    await sweeper.sweep();
    expect(expired).toEqual([
      ['run_late', 'still in_progress at the deadline'],
      ['run_gone', 'no longer exists upstream'],
    ]);
    expect(observed).toEqual([]);
  });

  it('leaves a channel answering 429 alone for at least its Retry-After, and asks the other channels meanwhile', async () => {
    const batches = [[run('run_1', 'a')], [run('run_2', 'a'), run('run_3', 'b'), run('run_4', 'a', DEADLINE_MS + 1)]];
    const { sweeper, asked, deferred, observed, expired } = sweeperOver(batches, {
      run_1: new GatewayError('rate_limited', 'slow down', null, 429, 5),
      run_2: status('run_2', 'completed'),
      run_3: status('run_3', 'completed'),
      run_4: status('run_4', 'completed'),
    });
    await sweeper.sweep();
    expect(deferred.get('run_1')).toBe(5000);
    await sweeper.sweep();
    expect(asked).toEqual(['run_1', 'run_3']);
    expect(observed).toEqual(['run_3']);
    expect(deferred.get('run_2')).toBe(5000);
    // A run past its deadline on a channel backing off is given up without asking.
    expect(expired).toEqual([['run_4', 'not ended by the deadline; channel a backing off']]);
  });

  it('backs a channel off one period after a first 5xx or no answer at all', async () => {
    const { sweeper, deferred } = sweeperOver([[run('run_1', 'a'), run('run_2', 'b')]], {
      run_1: new GatewayError('upstream_error', 'boom', null, 503),
      run_2: new GatewayError('upstream_timeout', 'no answer'),
    });
    await sweeper.sweep();
    expect(deferred.get('run_1')).toBe(SWEEP_MS);
    expect(deferred.get('run_2')).toBe(SWEEP_MS);
  });

  it('looks again later at a run whose channel is no longer configured, and gives it up at the deadline', async () => {
    const { sweeper, deferred, expired } = sweeperOver([[run('run_1', 'x'), run('run_2', 'x', DEADLINE_MS + 1)]], {}, ['a']);
    await sweeper.sweep();
    expect(deferred.get('run_1')).toBe(4 * SWEEP_MS);
    expect(expired).toEqual([['run_2', 'lives on a channel no longer configured']]);
  });
});
