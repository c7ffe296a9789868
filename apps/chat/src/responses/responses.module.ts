import { Module } from '@nestjs/common';
import { ResponsesRepository } from './responses.repository';
import { ResponsesService } from './responses.service';

/** Stored `responses` results, per tenant. */
@Module({ providers: [ResponsesService, ResponsesRepository], exports: [ResponsesService] })
export class ResponsesModule {}
