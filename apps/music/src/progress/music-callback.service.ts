import { MusicCallbackPayload, parseOrThrow, type MusicCallbackReply } from '@gateway/contracts';
import { parseMusicCallback } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { MusicTaskRepository } from '../tasks/music-task.repository';
import { tokenHashOf } from '../tasks/music-task.service';
import { MusicProgressService } from './music-progress.service';

/**
 * Upstream callbacks in. The token names the task (only its hash is stored); a callback about another
 * upstream task than the one this token was issued for is refused; anything else goes through the state
 * machine, so a duplicate or out-of-order callback never moves a task backwards.
 */
@Injectable()
export class MusicCallbackService {
  constructor(
    private readonly tasks: MusicTaskRepository,
    private readonly progress: MusicProgressService,
  ) {}

  async intake(payload: unknown): Promise<MusicCallbackReply> {
    const { token, body } = parseOrThrow(MusicCallbackPayload, payload);
    const task = await this.tasks.findByTokenHash(tokenHashOf(token));
    if (!task) return { accepted: false };
    const progress = parseMusicCallback(body);
    if (!progress) return { accepted: true };
    if (task.upstreamTaskId !== null && progress.upstreamTaskId !== task.upstreamTaskId) return { accepted: false };
    await this.progress.apply(task.id, progress, task);
    return { accepted: true };
  }
}
