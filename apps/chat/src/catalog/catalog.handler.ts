import { InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CatalogService } from './catalog.service';

@Controller()
export class CatalogHandler {
  constructor(private readonly catalog: CatalogService) {}

  @EventPattern(SUBJECTS.accounts.invalidated)
  onInvalidated(@Payload() payload: unknown): void {
    const parsed = InvalidationEvent.safeParse(payload);
    if (parsed.success) this.catalog.invalidate(parsed.data);
  }
}
