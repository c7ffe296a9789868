import { taskUsageEvent, type EndedTask } from './task-usage';

const hold = { holdId: 'music:t:task_1', tenantId: 't', perRequest: false, prices: { perSecond: '0', perImage: '0', perTask: '50000' }, heldMicros: '50000' };
const task: EndedTask = {
  id: 'task_1',
  kind: 'music_task',
  tenantId: '6f1c1d0e-0000-4000-8000-000000000001',
  keyId: '6f1c1d0e-0000-4000-8000-000000000002',
  modelId: 'sandbox-music',
  channelId: null,
  family: 'music',
  route: 'music.generate',
  result: 'succeeded',
  status: 200,
  produced: { tasks: 1 },
  charged: 50000n,
  hold,
  createdAt: new Date(1_000),
};

describe('taskUsageEvent', () => {
  it('keys the record by the hold its ledger entries carry, names the task as its subject and says what it was charged', () => {
    expect(taskUsageEvent(task, 4_000)).toMatchObject({
      requestId: 'music:t:task_1',
      subjectId: 'task_1',
      kind: 'music_task',
      outcome: 'succeeded',
      tasks: 1,
      costMicros: '50000',
      latencyMs: 3_000,
      at: new Date(1_000).toISOString(),
    });
  });

  it('a released task costs 0; a task that held nothing is keyed by its own id and claims no charge', () => {
    expect(taskUsageEvent({ ...task, result: 'failed', produced: { tasks: 0 }, charged: null }).costMicros).toBe('0');
    const free = taskUsageEvent({ ...task, hold: null, charged: null });
    expect(free.requestId).toBe('task_1');
    expect(free.costMicros).toBeUndefined();
    // A request-count plan's hold is one request, not money: the ledger holds no entry to agree with.
    expect(taskUsageEvent({ ...task, hold: { ...hold, perRequest: true } }).costMicros).toBeUndefined();
  });
});
