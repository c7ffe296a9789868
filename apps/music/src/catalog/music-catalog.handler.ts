import { InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { MusicCatalogService } from './music-catalog.service';

@Controller()
export class MusicCatalogHandler {
  constructor(private readonly catalog: MusicCatalogService) {}

  @EventPattern(SUBJECTS.accounts.invalidated)
  onInvalidated(@Payload() payload: unknown): void {
    const parsed = InvalidationEvent.safeParse(payload);
    if (parsed.success) this.catalog.invalidate(parsed.data);
  }
}
