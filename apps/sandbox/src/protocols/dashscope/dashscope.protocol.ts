// DashScope's API under /dashscope/api/v1: video synthesis as an asynchronous task (X-DashScope-Async:
// enable, polled at /tasks/{id}), multimodal image generation answered at once, DashScope's error body.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ControlError } from '../../core/controls';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { TASK_BOARD, viewOf, type BoardTask } from '../../core/task-board';

function renderError(_status: number, message: string, _param: string | null, code: string | null): unknown {
  return { request_id: randomUUID(), code: code ?? 'InvalidParameter', message };
}

const VideoBody = z.looseObject({
  model: z.string().min(1),
  input: z.looseObject({ prompt: z.string().min(1), img_url: z.string().optional() }),
  parameters: z.looseObject({ duration: z.number().int().min(1).max(60).optional(), resolution: z.string().optional() }).optional(),
});
const ImageBody = z.looseObject({
  model: z.string().min(1),
  input: z.looseObject({ messages: z.array(z.looseObject({ role: z.string(), content: z.array(z.looseObject({ text: z.string().optional() })) })).min(1) }),
  parameters: z.looseObject({ size: z.string().optional(), n: z.number().int().min(1).max(4).optional() }).optional(),
});

const STATUS = { queued: 'PENDING', running: 'RUNNING', succeeded: 'SUCCEEDED', failed: 'FAILED' } as const;

/** `YYYY-MM-DD HH:MM:SS.mmm`, as DashScope writes times. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  app.addHook('onRequest', async (request, reply) => exchange.track(request, reply));
  app.addHook('onRequest', async (request, reply) => {
    const auth = request.headers.authorization;
    const key = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (!key) return reply.code(401).send(renderError(401, 'No API-key provided.', null, 'InvalidApiKey'));
    exchange.stats.recordKey(key);
  });

  const invalid = (reply: FastifyReply, error: z.ZodError | ControlError) => {
    const message = error instanceof ControlError ? error.message : `${error.issues[0]!.path.join('.')}: ${error.issues[0]!.message}`;
    return reply.code(400).send(renderError(400, message, null, 'InvalidParameter'));
  };
  const create = (reply: FastifyReply, fields: Omit<BoardTask, 'id' | 'createdAt' | 'controls'>): BoardTask | null => {
    try {
      return TASK_BOARD.create(fields);
    } catch (error) {
      if (error instanceof ControlError) invalid(reply, error);
      else throw error;
      return null;
    }
  };

  app.post('/services/aigc/video-generation/video-synthesis', async (request, reply) => {
    if (request.headers['x-dashscope-async'] !== 'enable') {
      return reply.code(403).send(renderError(403, 'current user api does not support synchronous calls', null, 'AccessDenied'));
    }
    const parsed = VideoBody.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const body = parsed.data;
    if (!(await exchange.gate(request, reply, body.model, renderError, { stream: false }))) return reply;
    const task = create(reply, {
      output: 'video',
      route: 'video',
      model: body.model,
      prompt: body.input.prompt,
      seconds: body.parameters?.duration ?? 5,
      images: 0,
    });
    if (!task) return reply;
    if (task.controls.fail === 'submit')
      return reply.code(400).send(renderError(400, 'Input data may contain inappropriate content. (sandbox taskfail=submit)', null, 'DataInspectionFailed'));
    return { request_id: randomUUID(), output: { task_id: task.id, task_status: 'PENDING' } };
  });

  app.post('/services/aigc/multimodal-generation/generation', async (request, reply) => {
    const parsed = ImageBody.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const body = parsed.data;
    if (!(await exchange.gate(request, reply, body.model, renderError, { stream: false }))) return reply;
    const prompt = body.input.messages.flatMap((m) => m.content.map((c) => c.text ?? '')).join(' ');
    const task = create(reply, { output: 'image', route: 'image', model: body.model, prompt, seconds: 0, images: body.parameters?.n ?? 1 });
    if (!task) return reply;
    if (task.controls.fail === 'submit')
      return reply.code(400).send(renderError(400, 'Input data may contain inappropriate content. (sandbox taskfail=submit)', null, 'DataInspectionFailed'));
    const [width, height] = (body.parameters?.size ?? '1024*1024').split('*').map(Number);
    const content = TASK_BOARD.resultUrls(task, origin(request), Date.now()).map((image) => ({ image }));
    return {
      request_id: randomUUID(),
      output: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content } }] },
      usage: { width, height, image_count: content.length },
    };
  });

  app.get<{ Params: { id: string } }>('/tasks/:id', async (request, reply) => {
    const task = TASK_BOARD.get(request.params.id);
    if (!task || task.route !== 'video') return reply.code(404).send(renderError(404, `task ${request.params.id} not found`, null, 'NotFound'));
    const view = viewOf(task);
    const output: Record<string, unknown> = {
      task_id: task.id,
      task_status: STATUS[view.state],
      submit_time: stamp(task.createdAt),
      scheduled_time: stamp(task.createdAt + 1),
      orig_prompt: task.prompt,
      actual_prompt: task.prompt,
    };
    if (view.finishedAt !== null) output.end_time = stamp(view.finishedAt);
    if (view.state === 'succeeded') output.video_url = TASK_BOARD.resultUrls(task, origin(request), view.finishedAt!)[0];
    if (view.state === 'failed') Object.assign(output, { code: 'InternalError.Algo', message: 'The video could not be generated. (sandbox taskfail=mid)' });
    const usage = view.state === 'succeeded' ? { video_duration: task.seconds, video_ratio: '16:9', video_count: 1 } : undefined;
    return { request_id: randomUUID(), output, ...(usage ? { usage } : {}) };
  });
};

export const dashscopeProtocol: SandboxProtocol = { name: 'dashscope', prefix: '/dashscope/api/v1', renderError, plugin };
