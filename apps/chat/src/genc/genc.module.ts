import { Module } from '@nestjs/common';
import { ClaimCheckModule } from '../claim-check/claim-check.module';
import { TranslationModule } from '../translation/translation.module';
import { GencHandler } from './genc.handler';
import { GencService } from './genc.service';

/** The genc family in the chat service: generateContent and streamGenerateContent. */
@Module({ imports: [ClaimCheckModule, TranslationModule], controllers: [GencHandler], providers: [GencService] })
export class GencModule {}
