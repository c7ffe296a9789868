import { SUBJECTS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MusicCallbackService } from './music-callback.service';

@Controller()
export class MusicCallbackHandler {
  constructor(private readonly callbacks: MusicCallbackService) {}

  @MessagePattern(SUBJECTS.music.callback)
  intake(@Payload() payload: unknown) {
    return this.callbacks.intake(payload);
  }
}
