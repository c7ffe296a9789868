// Owns the broadcasts the accounts service sends: cache invalidations.
import { Global, Module } from '@nestjs/common';
import { InvalidationPublisher } from './invalidation.publisher';

@Global()
@Module({ providers: [InvalidationPublisher], exports: [InvalidationPublisher] })
export class EventsModule {}
