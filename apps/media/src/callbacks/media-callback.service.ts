import { MEDIA_CALLBACK_PATH, MediaCallbackPayload, parseOrThrow, type MediaCallbackReply } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import { MediaTaskRepository } from '../tasks/media-task.repository';
import { isTerminal } from '../tasks/media-task.state';
import { PollScheduler } from '../tasks/poll-scheduler.service';
import { CallbackTokenSigner } from '@gateway/storage';

/**
 * Vendor callbacks in. A callback is only a hint that a task may have ended: its token is checked first
 * (an HMAC of the task id, nothing stored), then the task is polled at once, so its state is read from
 * the upstream and moved by the poll's own compare-and-swap. A forged token names no task; a repeated or
 * late one finds the task as the upstream says it is, or already ended, and changes nothing.
 */
@Injectable()
export class MediaCallbackService {
  constructor(
    private readonly signer: CallbackTokenSigner,
    private readonly tasks: MediaTaskRepository,
    private readonly scheduler: PollScheduler,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
  ) {}

  /** The URL a vendor is given for one task's end; undefined when the gateway's public origin is not set. */
  urlFor(taskId: string): string | undefined {
    return this.env.PUBLIC_BASE_URL ? new URL(MEDIA_CALLBACK_PATH + this.signer.tokenOf(taskId), this.env.PUBLIC_BASE_URL).toString() : undefined;
  }

  async intake(payload: unknown): Promise<MediaCallbackReply> {
    const { token } = parseOrThrow(MediaCallbackPayload, payload);
    const taskId = this.signer.taskIdOf(token);
    if (taskId === null) return { accepted: false };
    const task = await this.tasks.findById(taskId);
    if (!task) return { accepted: false };
    if (!isTerminal(task.state)) await this.scheduler.hint(task.id, task.polls);
    return { accepted: true };
  }
}
