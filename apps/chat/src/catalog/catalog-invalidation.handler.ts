import { InvalidationEvent, SUBJECTS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CatalogCache } from './catalog.cache';

@Controller()
export class CatalogInvalidationHandler {
  constructor(private readonly catalog: CatalogCache) {}

  @EventPattern(SUBJECTS.accounts.invalidated)
  onInvalidated(@Payload() payload: unknown): void {
    // An event this version cannot read may concern anything cached: forget it all.
    const parsed = InvalidationEvent.safeParse(payload);
    this.catalog.invalidate(parsed.success ? parsed.data : 'all');
  }
}
