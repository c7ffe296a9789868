import { Module } from '@nestjs/common';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { PipelineModule } from '../pipeline/pipeline.module';
import { GencHandler } from './genc.handler';
import { GencService } from './genc.service';

/** The genc family in the chat service: generateContent and streamGenerateContent. */
@Module({ imports: [ClaimCheckModule, PipelineModule], controllers: [GencHandler], providers: [GencService] })
export class GencModule {}
