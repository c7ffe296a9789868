// Owns dead letters: what the usage and ledger consumers could not write, kept with its error in a
// JetStream stream, listed and replayed by the operator.
import { Module } from '@nestjs/common';
import { DeadLetterService } from './dead-letter.service';
import { DeadLettersHandler } from './dead-letters.handler';
import { DeadLettersConsoleHandler } from './dead-letters-console.handler';

@Module({ controllers: [DeadLettersHandler, DeadLettersConsoleHandler], providers: [DeadLetterService], exports: [DeadLetterService] })
export class DeadLettersModule {}
