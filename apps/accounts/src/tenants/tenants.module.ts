// Owns tenants: creation (with their first subscription) and lookup by slug for the other contexts.
import { Module } from '@nestjs/common';
import { TenantsHandler } from './tenants.handler';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

@Module({ controllers: [TenantsHandler], providers: [TenantsService, TenantsRepository], exports: [TenantsService] })
export class TenantsModule {}
