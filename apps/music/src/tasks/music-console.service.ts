import { TaskHold } from '@gateway/billing';
import type { ConsoleTaskServicePage, ConsoleTaskStatus, MusicTaskStatus } from '@gateway/contracts';
import { consoleTaskPage, statesOf } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { MusicAssetsService } from '../assets/music-assets.service';
import { MusicTaskRepository } from './music-task.repository';
import { musicHoldId } from './music-task.service';

/** Each music status on the console's shared words, with how far along it is. */
const STATUS_OF: Record<MusicTaskStatus, { status: ConsoleTaskStatus; progress: number | null }> = {
  PENDING: { status: 'queued', progress: 0 },
  TEXT_SUCCESS: { status: 'running', progress: 33 },
  FIRST_SUCCESS: { status: 'running', progress: 66 },
  SUCCESS: { status: 'succeeded', progress: 100 },
  CREATE_TASK_FAILED: { status: 'failed', progress: null },
  GENERATE_AUDIO_FAILED: { status: 'failed', progress: null },
};

/** The tenant console's list of music tasks, newest first, every file a fresh signed link as a task query gives. */
@Injectable()
export class MusicConsoleService {
  constructor(
    private readonly tasks: MusicTaskRepository,
    private readonly assets: MusicAssetsService,
  ) {}

  list(payload: unknown): Promise<ConsoleTaskServicePage> {
    return consoleTaskPage(
      payload,
      (status) => statesOf((music: MusicTaskStatus) => STATUS_OF[music].status, Object.keys(STATUS_OF) as MusicTaskStatus[], status),
      (query) => this.tasks.pageForTenant(query),
      (task) => {
        const view = this.assets.view(task);
        const mapped = STATUS_OF[view.status] ?? { status: 'running', progress: null };
        const links = [...view.response.sunoData.flatMap((track) => [track.audioUrl, track.imageUrl]), ...Object.values(view.response.files)].filter(
          (link): link is string => typeof link === 'string',
        );
        const hold = TaskHold.safeParse(task.hold);
        return {
          id: task.id,
          kind: 'music' as const,
          route: task.route,
          model: task.model,
          status: mapped.status,
          progress: mapped.progress,
          createdAt: task.createdAt.toISOString(),
          finishedAt: task.completedAt?.toISOString() ?? null,
          error: task.errorMessage,
          results: [...new Set(links)],
          fileIds: [],
          holdId: hold.success ? hold.data.holdId : musicHoldId(task.tenantId, task.id),
        };
      },
    );
  }
}
