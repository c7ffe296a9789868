import { GatewayError, MediaImageGeneratePayload, parseOrThrow, type StoredImagesReply } from '@gateway/contracts';
import { SIGNED_URLS, type SignedUrls } from '@gateway/platform/infra';
import { Inject, Injectable } from '@nestjs/common';
import { decodeOaicImages, imagesAnswer } from '../families/oaic-image.codec';
import { isTerminal } from '../tasks/media-task.state';
import { TaskEndWaiter } from '../tasks/task-end-waiter.service';
import { MediaCreateService } from './media-create.service';
import { resultLinks } from './result-links';

/**
 * `POST /oaic/v1/images/generations` with a native-media image model. OpenAI's images API answers at
 * once, the native route with a task: the task is created as on `/nativemedia/v1/images/generations`
 * (same validation, hold, submit, row and polling workers) and the reply waits, as a promise and
 * nothing more, for its end. Its rows are the `oaic` family's `images` kind, read on no query route.
 */
@Injectable()
export class MediaImageSyncService {
  constructor(
    private readonly creates: MediaCreateService,
    private readonly waiter: TaskEndWaiter,
    @Inject(SIGNED_URLS) private readonly links: SignedUrls,
  ) {}

  async generate(payload: unknown): Promise<StoredImagesReply> {
    const call = parseOrThrow(MediaImageGeneratePayload, payload);
    const decoded = decodeOaicImages(call.body);
    const created = await this.creates.start({ ...call, family: 'oaic', queryKind: 'images', idPrefix: 'img' }, decoded);
    const task = isTerminal(created.state) ? created : await this.waiter.wait(created.id, call.waitMs);
    if (!task) {
      throw new GatewayError(
        'upstream_timeout',
        `The image generation did not finish within ${Math.round(call.waitMs / 1000)} s; it goes on upstream and is billed only if it succeeds.`,
      );
    }
    if (task.state !== 'succeeded') {
      throw new GatewayError('upstream_error', `The image generation failed upstream: ${task.errorMessage ?? task.errorCode ?? task.state}`);
    }
    return imagesAnswer(task, decoded.format, resultLinks(task, this.links.signer, call.origin, this.links.ttlSeconds));
  }
}
