import type { MediaJob } from '@gateway/providers';
import type { MediaEnv } from '../config/media-env';
import type { CompletionHistoryRepository, HistoryScope } from './completion-history.repository';
import { bucketOf, HISTORY_EDGES_MS, pollPlanOf } from './poll-plan';
import { PollPlanner, type EndedTask } from './poll-planner.service';

/** A history that keeps what it was taught and answers reads with a uniform 20–40 s spread. */
function fakeHistory() {
  const recorded: number[] = [];
  let reads = 0;
  const weights = HISTORY_EDGES_MS.map(() => 0);
  for (let d = 20_000; d <= 40_000; d += 100) weights[bucketOf(d)]! += 1;
  const repository = {
    record: async (_scope: HistoryScope, durationMs: number) => void recorded.push(durationMs),
    read: async () => {
      reads++;
      return weights;
    },
  } as unknown as CompletionHistoryRepository;
  return { repository, recorded, weights, reads: () => reads };
}

const env = { MEDIA_POLL_INTERVAL_MS: 2000, MEDIA_POLL_MAX_BACKOFF_MS: 30_000, MEDIA_CALLBACK_POLL_MS: 30_000 } as MediaEnv;
const created = new Date('2026-01-01T00:00:00Z');

function ended(fields: Partial<EndedTask>): EndedTask {
  return {
    channelId: 'ch-1',
    model: 'kling-std',
    job: { output: 'video', nativeKind: 'text2video' } as MediaJob,
    createdAt: created,
    deadlineAt: new Date(created.getTime() + 3_600_000),
    polls: 0,
    updatedAt: created,
    ...fields,
  };
}

describe('PollPlanner', () => {
  it('teaches the midpoint between the poll before and the one that saw the end', async () => {
    const history = fakeHistory();
    const planner = new PollPlanner(history.repository, env);
    await planner.learn(ended({ polls: 3, updatedAt: new Date(created.getTime() + 28_000) }), created.getTime() + 31_000);
    expect(history.recorded).toEqual([29_500]);
  });

  it('teaches the end seen when no poll came before it', async () => {
    const history = fakeHistory();
    await new PollPlanner(history.repository, env).learn(ended({ polls: 0 }), created.getTime() + 23_000);
    expect(history.recorded).toEqual([23_000]);
  });

  it('plans from the history, and not at all where the upstream calls back', async () => {
    const history = fakeHistory();
    const planner = new PollPlanner(history.repository, env);
    expect(await planner.plan(ended({}), false)).toEqual(pollPlanOf(history.weights, 2000));
    expect(await planner.plan(ended({}), true)).toBeNull();
    expect(history.reads()).toBe(1);
    expect(planner.delayMs(ended({}), { plan: pollPlanOf(history.weights, 2000), progress: null, callbacks: true, now: created.getTime() })).toBe(30_000);
  });
});
