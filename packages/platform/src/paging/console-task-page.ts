import { ConsoleTasksMessage, parseOrThrow, type ConsoleTaskRow, type ConsoleTaskServicePage, type ConsoleTaskStatus } from '@gateway/contracts';
import { decodeCursor, encodeCursor } from './keyset-cursor';

/** What a service's task list asks of its repository: a tenant's rows newest first, after a keyset position. */
export interface TaskPageRead {
  tenantId: string;
  /** The service's own states that the console's status stands for; undefined: all. */
  states: string[] | undefined;
  after: { at: Date; id: string } | null;
  limit: number;
}

/** The service's own states that map to one of the console's shared words. */
export function statesOf<State extends string>(statusOf: (state: State) => ConsoleTaskStatus, all: readonly State[], status: ConsoleTaskStatus): State[] {
  return all.filter((state) => statusOf(state) === status);
}

/**
 * One page of a tenant's tasks for the console, newest first, and the cursor to the next: the message
 * parsed, the keyset position read from its cursor, one row more than the page fetched to know whether
 * another page follows. `states` maps the console's status to the service's own; `view` turns a row
 * into the console's shape.
 */
export async function consoleTaskPage<Row extends { id: string; createdAt: Date }>(
  payload: unknown,
  states: (status: ConsoleTaskStatus) => string[],
  read: (query: TaskPageRead) => Promise<Row[]>,
  view: (row: Row, query: ConsoleTasksMessage) => ConsoleTaskRow,
): Promise<ConsoleTaskServicePage> {
  const query = parseOrThrow(ConsoleTasksMessage, payload);
  const position = decodeCursor(query.cursor);
  const rows = await read({
    tenantId: query.tenantId,
    states: query.status ? states(query.status) : undefined,
    after: position ? { at: new Date(position.at), id: position.id } : null,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => view(row, query)),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.createdAt.toISOString(), id: last.id }) : null,
  };
}

/**
 * The findMany arguments of a task page: the tenant's rows, in the asked states (held in `stateField`),
 * after the keyset position, newest first, `limit` of them. One query shape for every task table.
 */
export function taskPageArgs<Field extends string>(query: TaskPageRead, stateField: Field) {
  const after = query.after;
  const inStates = (query.states ? { [stateField]: { in: query.states } } : {}) as Partial<Record<Field, { in: string[] }>>;
  return {
    where: {
      tenantId: query.tenantId,
      ...inStates,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    take: query.limit,
  };
}
