// Google's OAuth token endpoint for service accounts (POST /token, the jwt-bearer grant): verifies the signed
// assertion against the test account's public key and issues an opaque access token. `?ttl=<seconds>` sets
// its lifetime, `?fail=` and `?latency=` the usual controls; GET /_sandbox/tokens counts the tokens issued.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Exchange } from '../../core/exchange';
import { type AccessTokens, DEFAULT_TOKEN_SECONDS } from './access-tokens';
import { verifyAssertion } from './jwt-assertion';
import type { TrustedAccount } from './test-service-account';
import { renderTokenError } from './vertex.errors';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const TokenForm = z.object({ grant_type: z.string().optional(), assertion: z.string().optional() }).loose();
const TokenQuery = z.object({
  ttl: z.coerce.number().int().min(1).max(86_400).optional(),
  fail: z.string().optional(),
  latency: z.string().optional(),
});

export interface TokenRouteDeps {
  exchange: Exchange;
  tokens: AccessTokens;
  accounts: ReadonlyMap<string, TrustedAccount>;
}

export function registerTokenRoutes(app: FastifyInstance, { exchange, tokens, accounts }: TokenRouteDeps): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post('/token', async (request, reply) => {
    const query = TokenQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send(renderTokenError(400, `Invalid control: ${z.prettifyError(query.error)}`));
    const { ttl, ...controls } = query.data;
    const marker = Object.entries(controls)
      .map(([key, value]) => `${key}=${value}`)
      .join(',');
    const proceed = await exchange.gate(request, reply, marker ? `token@${marker}` : undefined, renderTokenError, { stream: false });
    if (!proceed) return reply;
    const form = TokenForm.safeParse(request.body ?? {});
    const grant = form.success ? form.data.grant_type : undefined;
    const assertion = form.success ? form.data.assertion : undefined;
    if (grant !== JWT_BEARER_GRANT) return reply.code(400).send({ error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grant ?? ''}` });
    if (!assertion) return reply.code(400).send({ error: 'invalid_request', error_description: 'Missing required parameter: assertion' });
    const verdict = verifyAssertion(assertion, accounts, Math.floor(Date.now() / 1000));
    if (!verdict.ok) return reply.code(400).send({ error: verdict.error, error_description: verdict.description });
    return tokens.issue(verdict.account.email, ttl ?? DEFAULT_TOKEN_SECONDS, Date.now());
  });

  app.get('/_sandbox/tokens', async () => ({ issued: tokens.issued }));
}
