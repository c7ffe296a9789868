import { randomUUID } from 'node:crypto';
import type { ConsoleTaskStatus } from '@gateway/contracts';
import { consoleTaskPage, statesOf, taskPageArgs, type TaskPageRead } from './console-task-page';

type State = 'waiting' | 'working' | 'done' | 'broken';
const STATUS_OF: Record<State, ConsoleTaskStatus> = { waiting: 'queued', working: 'running', done: 'succeeded', broken: 'failed' };
const states = (status: ConsoleTaskStatus) => statesOf((state: State) => STATUS_OF[state], Object.keys(STATUS_OF) as State[], status);

const tenantId = randomUUID();
const rows = Array.from({ length: 5 }, (_, i) => ({ id: `t${5 - i}`, createdAt: new Date(Date.UTC(2026, 10, 28, 12, 0, 5 - i)), state: 'done' as State }));
const view = (row: (typeof rows)[number]) => ({
  id: row.id,
  kind: 'media' as const,
  route: '/x',
  model: 'm',
  status: STATUS_OF[row.state],
  progress: null,
  createdAt: row.createdAt.toISOString(),
  finishedAt: null,
  error: null,
  results: [],
  fileIds: [],
  holdId: null,
});

/** A repository over `rows` (newest first) that honours the keyset position as the SQL does. */
function read(seen: TaskPageRead[]) {
  return async (query: TaskPageRead) => {
    seen.push(query);
    return rows
      .filter((row) => !query.after || row.createdAt < query.after.at || (row.createdAt.getTime() === query.after.at.getTime() && row.id < query.after.id))
      .slice(0, query.limit);
  };
}

describe('consoleTaskPage', () => {
  it('pages newest first, fetching one row more to know whether a next page follows, until the last', async () => {
    const seen: TaskPageRead[] = [];
    const message = { tenantId, origin: 'http://127.0.0.1:8080', limit: 2 };
    const first = await consoleTaskPage(message, states, read(seen), view);
    expect(first.data.map((row) => row.id)).toEqual(['t5', 't4']);
    const second = await consoleTaskPage({ ...message, cursor: first.nextCursor! }, states, read(seen), view);
    expect(second.data.map((row) => row.id)).toEqual(['t3', 't2']);
    const last = await consoleTaskPage({ ...message, cursor: second.nextCursor! }, states, read(seen), view);
    expect(last).toMatchObject({ data: [{ id: 't1' }], nextCursor: null });
    expect(seen.map((query) => query.limit)).toEqual([3, 3, 3]);
    expect(seen[1]!.after).toEqual({ at: rows[1]!.createdAt, id: 't4' });
  });

  it("maps the console's status to the service's own states, and refuses a cursor it never gave", async () => {
    const seen: TaskPageRead[] = [];
    await consoleTaskPage({ tenantId, origin: 'http://127.0.0.1:8080', status: 'running' }, states, read(seen), view);
    expect(seen[0]!.states).toEqual(['working']);
    await expect(consoleTaskPage({ tenantId, origin: 'http://127.0.0.1:8080', cursor: 'bm90IGEgY3Vyc29y' }, states, read([]), view)).rejects.toMatchObject({
      param: 'cursor',
    });
  });
});

describe('taskPageArgs', () => {
  it("filters by the tenant, the asked states in the table's own column and the keyset position, newest first", () => {
    const at = new Date(Date.UTC(2026, 10, 28));
    expect(taskPageArgs({ tenantId, states: ['a', 'b'], after: { at, id: 'x' }, limit: 11 }, 'state')).toEqual({
      where: { tenantId, state: { in: ['a', 'b'] }, OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: 'x' } }] },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 11,
    });
    expect(taskPageArgs({ tenantId, states: undefined, after: null, limit: 5 }, 'status').where).toEqual({ tenantId });
  });
});
