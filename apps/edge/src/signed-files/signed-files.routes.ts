import { GatewayError } from '@gateway/contracts';
import { servedObjectHeaders, SIGNED_FILE_PATH, type ObjectStore, type UrlSigner } from '@gateway/storage';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors/error-reply';
import { setRequestIdHeaders } from '../routing/request-id';

const TOKEN = /^[A-Za-z0-9_-]{1,2000}$/;

/**
 * `GET /files/signed/{token}`: streams a task result named by an opaque, expiring token (see UrlSigner),
 * with no API key, as a vendor's temporary result URL does; a player may show it inline, nothing else. Not a contract route (so not in the route table or
 * the route index): the links are handed out inside task results.
 */
export function registerSignedFileRoute(fastify: FastifyInstance, signer: UrlSigner, store: ObjectStore): void {
  // A wildcard, not a parameter: tokens are longer than the router's parameter length limit.
  fastify.get<{ Params: { '*': string } }>(`${SIGNED_FILE_PATH}/*`, { config: { routeId: 'files.signed', family: 'oaic' } }, async (request, reply) => {
    setRequestIdHeaders(reply);
    const token = request.params['*'];
    const signed = TOKEN.test(token) ? signer.verify(token) : null;
    if (!signed) return sendError(reply, 'oaic', new GatewayError('permission_denied', 'The signed link in the path is invalid or has expired.', 'token'));
    const info = await store.stat(signed.key);
    if (!info) return sendError(reply, 'oaic', GatewayError.notFound('The file this signed link names no longer exists.', 'token'));
    const body = await store.get(signed.key);
    const maxAge = Math.max(0, Math.floor(signed.expiresAt - Date.now() / 1000));
    return reply
      .headers(servedObjectHeaders(info.contentType, { inline: true }))
      .header('content-length', String(info.size))
      .header('cache-control', `private, max-age=${maxAge}`)
      .send(body);
  });
}
