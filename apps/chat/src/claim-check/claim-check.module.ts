import { Module } from '@nestjs/common';
import { ClaimCheckService } from './claim-check.service';

/** Claim-checked request bodies (large payloads parked in Redis by the edge). */
@Module({ providers: [ClaimCheckService], exports: [ClaimCheckService] })
export class ClaimCheckModule {}
