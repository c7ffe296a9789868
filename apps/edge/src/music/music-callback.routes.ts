import { GatewayError, MusicCallbackToken } from '@gateway/contracts';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/error-reply';
import type { BodyLimit } from '../routing/body-limits';
import type { MusicRelayService } from './music-relay.service';

/** Where upstreams call back: `PUBLIC_BASE_URL` + this path, with the task's own unguessable token. */
export const MUSIC_CALLBACK_PATH = '/music/callbacks/:token';

/**
 * The public intake of upstream music callbacks. No API key: the token in the path is the credential
 * (an unknown or malformed one is a 404 and changes nothing). Not a route of the contract. Its body is
 * small (MUSIC_CALLBACK_MAX_BYTES): anyone may send one.
 */
export function registerMusicCallbackRoute(fastify: FastifyInstance, relay: MusicRelayService, maxBytes: number): void {
  const bodyLimit: BodyLimit = { bytes: maxBytes, variable: 'MUSIC_CALLBACK_MAX_BYTES' };
  const options = { bodyLimit: maxBytes, config: { routeId: 'music.callbacks', family: 'music' as const, bodyLimit } };
  fastify.post<{ Params: { token: string } }>(MUSIC_CALLBACK_PATH, options, async (request, reply) => {
    try {
      const token = MusicCallbackToken.safeParse(request.params.token);
      if (!token.success) return sendError(reply, 'music', GatewayError.notFound('No music task answers to this callback URL.'));
      await relay.callback(token.data, request.body ?? null);
      return { code: 200, msg: 'success' };
    } catch (error) {
      return sendError(reply, 'music', error);
    }
  });
}
