// Owns subscription expiry changes and the invalidation they trigger for the tenant's keys.
import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { SubscriptionsHandler } from './subscriptions.handler';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

@Module({ imports: [TenantsModule], controllers: [SubscriptionsHandler], providers: [SubscriptionsService, SubscriptionsRepository] })
export class SubscriptionsModule {}
