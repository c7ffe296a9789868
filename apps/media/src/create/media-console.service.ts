import { ConsoleTasksMessage, parseOrThrow, type ConsoleTaskServicePage, type ConsoleTaskStatus } from '@gateway/contracts';
import { decodeCursor, encodeCursor } from '@gateway/platform';
import { SIGNED_URLS, type SignedUrls } from '@gateway/platform/infra';
import { Inject, Injectable } from '@nestjs/common';
import { MediaTaskRepository } from '../tasks/media-task.repository';
import type { MediaTaskState } from '../tasks/media-task.state';
import { resultLinks } from './result-links';

const STATUS_OF: Record<MediaTaskState, ConsoleTaskStatus> = {
  queued: 'queued',
  submitted: 'running',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
};
const STATES_OF = (status: ConsoleTaskStatus): MediaTaskState[] => (Object.keys(STATUS_OF) as MediaTaskState[]).filter((state) => STATUS_OF[state] === status);

/** The tenant console's list of media tasks: every family's, newest first, with signed result links like a task GET gives. */
@Injectable()
export class MediaConsoleService {
  constructor(
    private readonly tasks: MediaTaskRepository,
    @Inject(SIGNED_URLS) private readonly links: SignedUrls,
  ) {}

  async list(payload: unknown): Promise<ConsoleTaskServicePage> {
    const query = parseOrThrow(ConsoleTasksMessage, payload);
    const position = decodeCursor(query.cursor);
    const rows = await this.tasks.pageForTenant(query.tenantId, {
      states: query.status ? STATES_OF(query.status) : undefined,
      after: position ? { at: new Date(position.at), id: position.id } : null,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      data: page.map((task) => ({
        id: task.id,
        kind: 'media',
        route: task.route,
        model: task.model,
        status: STATUS_OF[task.state],
        progress: task.progress,
        createdAt: task.createdAt.toISOString(),
        finishedAt: task.finishedAt?.toISOString() ?? null,
        error: task.errorMessage,
        results: task.state === 'succeeded' ? resultLinks(task, this.links.signer, query.origin, this.links.ttlSeconds) : [],
        // The hold is dropped from the row once settled; its id is the task's own.
        fileIds: [],
        holdId: task.hold?.holdId ?? task.id,
      })),
      nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.createdAt.toISOString(), id: last.id }) : null,
    };
  }
}
