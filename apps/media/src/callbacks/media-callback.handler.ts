import { SUBJECTS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MediaCallbackService } from './media-callback.service';

/** A vendor's task-end callback, relayed by the edge's public intake. */
@Controller()
export class MediaCallbackHandler {
  constructor(private readonly callbacks: MediaCallbackService) {}

  @MessagePattern(SUBJECTS.media.callback)
  intake(@Payload() payload: unknown) {
    return this.callbacks.intake(payload);
  }
}
