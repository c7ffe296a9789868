// Owns API keys: issuing (plain key shown once, only its hash stored), rotation, revocation, and resolution for the edge.
import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { TenantsModule } from '../tenants/tenants.module';
import { KeyLimitsHandler } from './key-limits.handler';
import { KeyLimitsService } from './key-limits.service';
import { KeysHandler } from './keys.handler';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

@Module({ imports: [TenantsModule, ProjectsModule], controllers: [KeysHandler, KeyLimitsHandler], providers: [KeysService, KeysRepository, KeyLimitsService] })
export class KeysModule {}
