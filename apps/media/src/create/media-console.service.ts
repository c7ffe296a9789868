import type { ConsoleTaskServicePage, ConsoleTaskStatus } from '@gateway/contracts';
import { consoleTaskPage, statesOf } from '@gateway/platform';
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

/** The tenant console's list of media tasks: every family's, newest first, with signed result links like a task GET gives. */
@Injectable()
export class MediaConsoleService {
  constructor(
    private readonly tasks: MediaTaskRepository,
    @Inject(SIGNED_URLS) private readonly links: SignedUrls,
  ) {}

  list(payload: unknown): Promise<ConsoleTaskServicePage> {
    return consoleTaskPage(
      payload,
      (status) => statesOf((state: MediaTaskState) => STATUS_OF[state], Object.keys(STATUS_OF) as MediaTaskState[], status),
      (query) => this.tasks.pageForTenant(query),
      (task, query) => ({
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
      }),
    );
  }
}
