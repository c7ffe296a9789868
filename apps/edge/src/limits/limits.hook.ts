import { estimateInputTokens } from '@gateway/billing';
import { GatewayError, ROUTES, type AuthScheme, type Family } from '@gateway/contracts';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extractApiKey } from '../auth/auth-headers';
import { KeyResolverService } from '../auth/key-resolver.service';
import { sendError } from '../errors/error-reply';
import { logIfInternal } from '../errors/internal-error-log';
import { RateLimitedError, RateLimiter } from './rate-limiter.service';

function tokensOf(body: unknown): number {
  if (!body || typeof body !== 'object') return 0;
  const fields = body as Record<string, unknown>;
  const output = [fields.max_completion_tokens, fields.max_tokens, fields.max_output_tokens].find((v) => typeof v === 'number');
  return estimateInputTokens([fields.messages ?? fields.prompt ?? fields.input ?? fields.contents, fields.system]) + (typeof output === 'number' ? output : 0);
}

/** Music tells request-rate refusals (430) from frequency and concurrency ones (405). */
export function inDialect(error: RateLimitedError, family: Family): GatewayError {
  if (family !== 'music' || error.kind === 'rpm') return error;
  return new GatewayError('rate_limited', error.message, null, 405, error.retryAfterSeconds);
}

/**
 * Rate limits in front of every public route: a Fastify preHandler that looks the key up in the same
 * in-memory cache auth uses, and only when the key or its tenant has limits makes one Redis call.
 * Unknown or missing keys pass through untouched: the route's own auth answers them.
 */
@Injectable()
export class LimitsHook implements OnModuleInit {
  private readonly schemes = new Map<string, AuthScheme>(ROUTES.map((route) => [route.id, route.auth]));
  private readonly logger = new Logger('edge');

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(KeyResolverService) private readonly keys: KeyResolverService,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preHandler', (request, reply) => this.check(request, reply));
  }

  private async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { routeId, family } = request.routeOptions.config ?? {};
    const scheme = routeId ? this.schemes.get(routeId) : undefined;
    if (!scheme || !family) return;
    let key: string;
    try {
      key = extractApiKey(scheme, request.headers);
    } catch {
      return;
    }
    const resolution = await this.keys.resolve(key).catch(() => null);
    if (resolution?.status !== 'valid' || !RateLimiter.limited(resolution.context)) return;
    try {
      const admission = await this.limiter.admit(resolution.context, tokensOf(request.body));
      reply.raw.once('close', () => admission.leave());
    } catch (error) {
      logIfInternal(this.logger, request, error);
      await sendError(reply, family, error instanceof RateLimitedError ? inDialect(error, family) : error);
    }
  }
}
