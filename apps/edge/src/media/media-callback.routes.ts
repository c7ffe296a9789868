import { GatewayError, MEDIA_CALLBACK_PATH, MediaCallbackToken } from '@gateway/contracts';
import type { CallbackTokenSigner } from '@gateway/storage';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/error-reply';
import type { BodyLimit } from '../routing/body-limits';
import type { MediaRelayService } from './media-relay.service';

/** The intake's route: contracts' MEDIA_CALLBACK_PATH and the task's signed token. */
export const MEDIA_CALLBACK_ROUTE = `${MEDIA_CALLBACK_PATH}:token`;

/**
 * The public intake of vendor task-end callbacks (Kling-style `callback_url`). No API key: the token in
 * the path is the credential, checked before anything else (a malformed or unsigned one is a 404 and
 * changes nothing). The body is capped small (MEDIA_CALLBACK_MAX_BYTES) and not relayed: the callback is a
 * hint, and the task is read from the upstream. Not a route of the contract; it answers in the gateway's
 * plain (oaic) dialect, which names no family.
 */
export function registerMediaCallbackRoute(fastify: FastifyInstance, relay: MediaRelayService, signer: CallbackTokenSigner, maxBytes: number): void {
  const bodyLimit: BodyLimit = { bytes: maxBytes, variable: 'MEDIA_CALLBACK_MAX_BYTES' };
  const options = { bodyLimit: maxBytes, config: { routeId: 'media.callbacks', family: 'oaic' as const, bodyLimit } };
  fastify.post<{ Params: { token: string } }>(MEDIA_CALLBACK_ROUTE, options, async (request, reply) => {
    try {
      const token = MediaCallbackToken.safeParse(request.params.token);
      if (!token.success || signer.taskIdOf(token.data) === null)
        return sendError(reply, 'oaic', GatewayError.notFound('No task answers to this callback URL.'));
      await relay.callback(token.data);
      return { received: true };
    } catch (error) {
      return sendError(reply, 'oaic', error);
    }
  });
}
