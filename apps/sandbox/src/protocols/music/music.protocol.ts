// The Suno-style music API under /music: bearer auth, `{code, msg, data}` answers (HTTP 200 with the code
// in the body, as the vendor does), task creation on each route and record-info per kind. An account
// whose key contains "limited" lacks split-stem and replace-section, as accounts without that support do.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { MusicSimulator, type MusicKind } from './music-task.simulator';

const CREATE_ROUTES: Record<string, MusicKind> = {
  '/api/v1/generate': 'song',
  '/api/v1/generate/extend': 'song',
  '/api/v1/generate/upload-cover': 'song',
  '/api/v1/generate/upload-extend': 'song',
  '/api/v1/generate/add-vocals': 'song',
  '/api/v1/generate/add-instrumental': 'song',
  '/api/v1/generate/replace-section': 'song',
  '/api/v1/generate/generate-persona': 'persona',
  '/api/v1/lyrics': 'lyrics',
  '/api/v1/generate/get-timestamped-lyrics': 'timestamps',
  '/api/v1/style/generate': 'style',
  '/api/v1/suno/cover/generate': 'cover',
  '/api/v1/vocal-removal/generate': 'stems',
  '/api/v1/vocal-removal/split-stem': 'stems',
  '/api/v1/wav/generate': 'wav',
  '/api/v1/mp4/generate': 'mp4',
};

const RECORD_INFO = [
  '/api/v1/generate/record-info',
  '/api/v1/lyrics/record-info',
  '/api/v1/suno/cover/record-info',
  '/api/v1/vocal-removal/record-info',
  '/api/v1/wav/record-info',
  '/api/v1/mp4/record-info',
];

const ACCOUNT_FEATURES = new Set(['/api/v1/vocal-removal/split-stem', '/api/v1/generate/replace-section']);

export function renderMusicError(status: number, message: string): unknown {
  return { code: status, msg: message, data: null };
}

function keyOf(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, deps) => {
  const simulator = new MusicSimulator(deps.files);
  app.addHook('onRequest', async (request, reply) => deps.exchange.track(request, reply));
  app.addHook('onRequest', async (request, reply) => {
    const key = keyOf(request);
    if (!key) return reply.code(401).send(renderMusicError(401, 'You must provide an API key in the Authorization header (Bearer).'));
    deps.exchange.stats.recordKey(key);
  });

  for (const [path, kind] of Object.entries(CREATE_ROUTES)) {
    app.post(path, async (request: FastifyRequest, reply: FastifyReply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (ACCOUNT_FEATURES.has(path) && keyOf(request).includes('limited')) {
        return reply.send(renderMusicError(400, 'This feature is not supported by this account.'));
      }
      if (typeof body.callBackUrl !== 'string' || !body.callBackUrl) return reply.send(renderMusicError(400, 'callBackUrl is required.'));
      if (typeof body.model === 'string' && body.model.includes('fail=create'))
        return reply.send(renderMusicError(500, 'Create task failed. (sandbox fail=create)'));
      const task = simulator.start(kind, body, `http://${request.headers.host}`);
      return reply.send({ code: 200, msg: 'success', data: { taskId: task.id } });
    });
  }

  for (const path of RECORD_INFO) {
    app.get<{ Querystring: { taskId?: string } }>(path, async (request, reply) => {
      const task = request.query.taskId ? simulator.get(request.query.taskId) : undefined;
      if (!task) return reply.send(renderMusicError(404, 'Task not found.'));
      return reply.send(simulator.recordInfo(task));
    });
  }

  app.setNotFoundHandler((request, reply) => reply.code(404).send(renderMusicError(404, `Invalid URL (${request.method} ${request.url})`)));
};

export const musicProtocol: SandboxProtocol = { name: 'music', prefix: '/music', renderError: renderMusicError, plugin };
