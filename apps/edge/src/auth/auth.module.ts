import { Module } from '@nestjs/common';
import { AuthService } from './auth.service';
import { KeyResolverService } from './key-resolver.service';

/** Owns API-key authentication: header rules per scheme and the in-memory key cache fed by invalidation broadcasts. */
@Module({ providers: [KeyResolverService, AuthService], exports: [AuthService, KeyResolverService] })
export class AuthModule {}
