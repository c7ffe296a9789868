import { GatewayError, OidcCallbackQuery, OidcStartQuery, parseInput, RPCS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toGatewayError } from '../errors/error-dialect';
import { clientOf, ownOriginOf } from './console-client';
import { clearOidcStateCookie, OIDC_PATH, OIDC_STATE_COOKIE, readCookie, setOidcStateCookie, setSessionCookie } from './console-cookies';
import type { ConsoleGuard } from './console-guard';
import { signInErrorCodeOf } from './sign-in-error-code';
import { sessionTokenHash, type ConsoleSessionCache } from './console-session.cache';

const TIMEOUT = { timeoutMs: 20_000 };

/**
 * Both routes are browser navigations: a failure goes back to the sign-in page with a code, whose sentence
 * the page owns (an address anyone can write must not put words on this origin); the error is logged.
 */
function backToSignIn(reply: FastifyReply, error: GatewayError): FastifyReply {
  reply.request.errorCode = error.code;
  reply.request.log.info({ code: error.code, param: error.param, message: error.message }, 'single sign-on failed');
  return reply.header('cache-control', 'no-store').redirect(`/console/sign-in?error=${signInErrorCodeOf(error)}`, 303);
}

/**
 * Single sign-on through the tenant's OpenID provider. `start` sends the browser there with a state kept
 * in a Lax cookie (the provider's redirect back is a cross-site navigation); `callback` checks the state
 * against that cookie, lets accounts finish the code exchange, and opens a session.
 */
export function registerTenantSso(fastify: FastifyInstance, guard: ConsoleGuard, bus: NatsBus, sessions: ConsoleSessionCache): void {
  const navigation = (url: string, routeId: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
    fastify.get(url, { config: { routeId } }, async (request, reply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        return backToSignIn(reply, toGatewayError(error));
      }
    });

  navigation(`${OIDC_PATH}/start`, 'console.sso-start', async (request, reply) => {
    const { tenant } = parseInput(OidcStartQuery, request.query ?? {}, 'query');
    const redirectUri = `${ownOriginOf(request)}${OIDC_PATH}/callback`;
    const begun = await bus.call(RPCS.accounts.console.oidc.begin, { tenant, redirectUri }, TIMEOUT);
    setOidcStateCookie(request, reply, begun.state);
    return reply.header('cache-control', 'no-store').redirect(begun.authorizationUrl, 303);
  });

  navigation(`${OIDC_PATH}/callback`, 'console.sso-callback', async (request, reply) => {
    const { state } = parseInput(OidcCallbackQuery, request.query ?? {}, 'query');
    const expected = readCookie(request, OIDC_STATE_COOKIE);
    clearOidcStateCookie(request, reply);
    if (expected === undefined || expected !== state) {
      throw GatewayError.invalid('This sign-in was not started from this browser, or took too long: start it again.', 'state');
    }
    const previous = guard.tokenOf(request);
    const issued = await bus.call(
      RPCS.accounts.console.oidc.complete,
      {
        state,
        callbackUrl: `${ownOriginOf(request)}${request.url}`,
        client: clientOf(request),
        previousTokenHash: previous ? sessionTokenHash(previous) : null,
      },
      TIMEOUT,
    );
    if (previous) sessions.forget(previous);
    setSessionCookie(request, reply, 'tenant', issued.token, issued.session.expiresAt);
    return reply.header('cache-control', 'no-store').redirect('/console/', 303);
  });
}
