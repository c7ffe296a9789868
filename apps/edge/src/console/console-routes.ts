import { GatewayError, type ConsoleGrant } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { ConsoleGuard, SignedIn } from './console-guard';
import { sendConsoleError } from './console-reply';

/** Console API bodies are small forms: anything larger is refused before it is read. */
const BODY_LIMIT = 64 * 1024;

type OpenHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type SignedInHandler = (request: FastifyRequest, reply: FastifyReply, call: SignedIn) => Promise<unknown>;

/**
 * Registers console API routes on one listener: each checks its origin, then (for signed-in routes) its
 * session, CSRF token and grant, inside its own handler: no hook is added to any other route.
 */
export class ConsoleRoutes {
  constructor(
    private readonly fastify: FastifyInstance,
    readonly guard: ConsoleGuard,
  ) {}

  /** A route anyone may call from the console's own origin (sign-in, invite links). */
  open(method: HTTPMethods, url: string, routeId: string, handler: OpenHandler): void {
    this.fastify.route({
      method,
      url,
      bodyLimit: BODY_LIMIT,
      config: { routeId },
      handler: async (request, reply) => {
        try {
          this.guard.checkOrigin(request);
          const result = await handler(request, reply);
          return reply.sent ? reply : reply.header('cache-control', 'no-store').send(result);
        } catch (error) {
          return sendConsoleError(reply, error);
        }
      },
    });
  }

  /** Any other path under /console/api: a JSON 404 rather than the page. */
  unknownPaths(): void {
    this.fastify.all('/console/api/*', { config: { routeId: 'console.unknown' } }, async (request, reply) =>
      sendConsoleError(reply, GatewayError.notFound(`No console API route ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}.`)),
    );
  }

  /** A route for a signed-in session holding `grant` (null: any session of this side). */
  signedIn(method: HTTPMethods, url: string, routeId: string, grant: ConsoleGrant | null, handler: SignedInHandler): void {
    this.open(method, url, routeId, async (request, reply) => handler(request, reply, await this.guard.signedIn(request, grant)));
  }
}
