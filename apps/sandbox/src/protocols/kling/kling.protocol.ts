// A Kling-style native API under /kling: a JWT bearer (HS256, issuer = access key, not expired), one
// route per kind, answers in {code, message, request_id, data}; a task is read only under the route
// that created it, and the vendor's own parameter rules are enforced (code 1201).
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ControlError } from '../../core/controls';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { TASK_BOARD, viewOf, type BoardTask } from '../../core/task-board';
import { callBackAtEnd } from './kling-callbacks';

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

const VIDEO_KINDS = new Set(['text2video', 'image2video', 'omni-video']);
const IMAGE_KINDS = new Set(['generations', 'omni-image']);
const STATUS = { queued: 'submitted', running: 'processing', succeeded: 'succeed', failed: 'failed' } as const;

function renderError(status: number, message: string): unknown {
  const code = status === 401 ? 1000 : status === 429 ? 1302 : status === 404 ? 1203 : status >= 500 ? 5000 : 1201;
  return { code, message, request_id: randomUUID() };
}

const Body = z.looseObject({
  model_name: z.string().min(1),
  prompt: z.string().min(1),
  mode: z.enum(['std', 'pro']).optional(),
  duration: z.enum(['5', '10']).optional(),
  image: z.string().optional(),
  image_list: z.array(z.looseObject({ image_url: z.string() })).optional(),
  n: z.number().int().min(1).max(9).optional(),
  /** Called with the task's data when it ends (see kling-callbacks.ts). */
  callback_url: z.url().optional(),
});

/** A well-formed HS256 JWT with an issuer and an expiry still ahead; the signature is the vendor's to check. */
function jwtProblem(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return 'Authorization is not a JWT.';
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString()) as { alg?: string };
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) as { iss?: string; exp?: number };
    if (header.alg !== 'HS256') return 'JWT alg must be HS256.';
    if (!claims.iss) return 'JWT has no issuer (access key).';
    if (!claims.exp || claims.exp * 1000 <= Date.now()) return 'JWT has expired.';
    return null;
  } catch {
    return 'Authorization is not a JWT.';
  }
}

function ruleProblem(kind: string, body: z.infer<typeof Body>): string | null {
  if (/-(std|pro)$/.test(body.model_name)) return `model_name '${body.model_name}' is invalid: send the base model name and mode.`;
  const omni = /omni/.test(body.model_name);
  if (kind === 'omni-video' || kind === 'omni-image') return omni ? null : `model_name '${body.model_name}' is not an omni model.`;
  if (omni) return `model_name '${body.model_name}' is only served by the omni routes.`;
  if (kind === 'image2video' && !body.image) return 'image is required on image2video.';
  return null;
}

function taskData(task: BoardTask, origin: string) {
  const view = viewOf(task);
  const data: Record<string, unknown> = {
    task_id: task.id,
    task_status: STATUS[view.state],
    task_status_msg: view.state === 'failed' ? 'The task failed. (sandbox taskfail=mid)' : '',
    created_at: task.createdAt,
    updated_at: view.finishedAt ?? Date.now(),
  };
  if (view.state === 'succeeded') {
    const urls = TASK_BOARD.resultUrls(task, origin, view.finishedAt!);
    data.task_result =
      task.output === 'video'
        ? { videos: urls.map((url) => ({ id: randomUUID(), url, duration: String(task.seconds) })) }
        : { images: urls.map((url, index) => ({ index, url })) };
  }
  return data;
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  app.addHook('onRequest', async (request, reply) => exchange.track(request, reply));
  app.addHook('onRequest', async (request, reply) => {
    const auth = request.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    const problem = token ? jwtProblem(token) : 'Authorization header is missing.';
    if (problem) return reply.code(401).send(renderError(401, problem));
    exchange.stats.recordKey(token);
  });

  const envelope = (data: unknown) => ({ code: 0, message: 'SUCCEED', request_id: randomUUID(), data });
  const create = async (request: FastifyRequest, reply: FastifyReply, output: 'video' | 'image', kind: string) => {
    const parsed = Body.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(renderError(400, `${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`));
    const body = parsed.data;
    const problem = ruleProblem(kind, body);
    if (problem) return reply.code(400).send(renderError(400, problem));
    if (!(await exchange.gate(request, reply, body.model_name, renderError, { stream: false }))) return reply;
    let task: BoardTask;
    try {
      task = TASK_BOARD.create({
        output,
        route: kind,
        model: body.model_name,
        prompt: body.prompt,
        seconds: Number(body.duration ?? '5'),
        images: body.n ?? 1,
      });
    } catch (error) {
      if (error instanceof ControlError) return reply.code(400).send(renderError(400, error.message));
      throw error;
    }
    if (task.controls.fail === 'submit')
      return reply.code(400).send({ code: 1301, message: 'Content security policy triggered. (sandbox taskfail=submit)', request_id: randomUUID() });
    const origin = originOf(request);
    if (body.callback_url) callBackAtEnd(task, body.callback_url, () => taskData(task, origin));
    return envelope(taskData(task, origin));
  };
  const read = (request: FastifyRequest<{ Params: { kind: string; id: string } }>, reply: FastifyReply) => {
    const task = TASK_BOARD.get(request.params.id);
    if (!task || task.route !== request.params.kind) return reply.code(404).send(renderError(404, `task ${request.params.id} not found`));
    return envelope(taskData(task, originOf(request)));
  };

  app.post<{ Params: { kind: string } }>('/v1/videos/:kind', async (request, reply) =>
    VIDEO_KINDS.has(request.params.kind) ? create(request, reply, 'video', request.params.kind) : reply.code(404).send(renderError(404, 'no such route')),
  );
  app.post<{ Params: { kind: string } }>('/v1/images/:kind', async (request, reply) =>
    IMAGE_KINDS.has(request.params.kind) ? create(request, reply, 'image', request.params.kind) : reply.code(404).send(renderError(404, 'no such route')),
  );
  app.get<{ Params: { kind: string; id: string } }>('/v1/videos/:kind/:id', read);
  app.get<{ Params: { kind: string; id: string } }>('/v1/images/:kind/:id', read);
};

export const klingProtocol: SandboxProtocol = { name: 'kling', prefix: '/kling', renderError, plugin };
