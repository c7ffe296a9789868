// Temporary result URLs of the media protocols (/_media/results/<token>/<n>.<ext>): no auth, as a
// vendor's object-storage link; refused with 403 once expired, as those are.
import type { FastifyPluginAsync } from 'fastify';
import { buildPng } from '../../core/media.builder';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { TASK_BOARD } from '../../core/task-board';
import { buildMp4 } from '../../core/video.builder';

function renderError(status: number, message: string): unknown {
  return { Code: status === 403 ? 'AccessDenied' : 'NoSuchKey', Message: message };
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, deps) => {
  app.addHook('onRequest', async (request, reply) => deps.exchange.track(request, reply));

  app.get<{ Params: { token: string; file: string } }>('/results/:token/:file', async (request, reply) => {
    const found = TASK_BOARD.redeem(request.params.token);
    if (found === 'expired') return reply.code(403).send(renderError(403, 'Request has expired.'));
    if (found === 'unknown') return reply.code(404).send(renderError(404, 'The specified key does not exist.'));
    const seed = `${found.task.id}#${found.index}`;
    if (found.task.output === 'video') return reply.type('video/mp4').send(buildMp4(seed, found.task.seconds));
    return reply.type('image/png').send(buildPng(seed));
  });
};

export const mediaResultsProtocol: SandboxProtocol = { name: 'media-results', prefix: '/_media', renderError, plugin };
