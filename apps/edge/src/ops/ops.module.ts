import { Module } from '@nestjs/common';
import { ReadinessService } from './readiness.service';

/** Owns the edge's operational surface: readiness of NATS and every service (routes are mounted by the app builder). */
@Module({ providers: [ReadinessService], exports: [ReadinessService] })
export class OpsModule {}
