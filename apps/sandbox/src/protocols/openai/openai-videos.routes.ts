// OpenAI's videos API under /openai/v1: create, retrieve, and the bytes at /videos/{id}/content (until
// the video expires). Progress and failures follow the model's task controls (core/task-board).
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ControlError } from '../../core/controls';
import type { ProtocolDeps } from '../../core/protocol';
import { TASK_BOARD, viewOf, type BoardTask } from '../../core/task-board';
import { buildMp4 } from '../../core/video.builder';
import { renderOpenaiError } from './openai.errors';

const VideoCreate = z.looseObject({
  model: z.string().min(1),
  prompt: z.string().min(1),
  seconds: z.enum(['4', '5', '8', '10', '12']).optional(),
  size: z
    .string()
    .regex(/^\d+x\d+$/)
    .optional(),
});

const STATUS = { queued: 'queued', running: 'in_progress', succeeded: 'completed', failed: 'failed' } as const;

function videoObject(task: BoardTask, size: string) {
  const view = viewOf(task);
  const seconds = (s: number) => Math.floor(s / 1000);
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status: STATUS[view.state],
    progress: view.progress,
    created_at: seconds(task.createdAt),
    completed_at: view.finishedAt === null ? null : seconds(view.finishedAt),
    expires_at: view.finishedAt === null ? null : seconds(view.finishedAt + task.controls.expireMs),
    seconds: String(task.seconds),
    size,
    error: view.state === 'failed' ? { code: 'video_generation_failed', message: 'The video could not be generated. (sandbox taskfail=mid)' } : null,
  };
}

export function registerOpenaiVideoRoutes(app: FastifyInstance, { exchange }: ProtocolDeps): void {
  const sizes = new Map<string, string>();
  const notFound = (reply: FastifyReply, id: string) =>
    reply.code(404).send(renderOpenaiError(404, `Video with id '${id}' not found.`, null, 'video_not_found'));

  app.post('/videos', async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = VideoCreate.safeParse(request.body);
    if (!parsed.success)
      return reply
        .code(400)
        .send(
          renderOpenaiError(400, `Invalid video request: ${parsed.error.issues[0]!.message}`, String(parsed.error.issues[0]!.path[0] ?? ''), 'invalid_value'),
        );
    const body = parsed.data;
    if (!(await exchange.gate(request, reply, body.model, renderOpenaiError, { stream: false }))) return reply;
    let task: BoardTask;
    try {
      task = TASK_BOARD.create(
        { output: 'video', route: 'videos', model: body.model, prompt: body.prompt, seconds: Number(body.seconds ?? '4'), images: 0 },
        'video_',
      );
    } catch (error) {
      if (error instanceof ControlError) return reply.code(400).send(renderOpenaiError(400, error.message, error.param, 'invalid_value'));
      throw error;
    }
    if (task.controls.fail === 'submit') {
      return reply
        .code(400)
        .send(renderOpenaiError(400, 'Your request was rejected by the safety system. (sandbox taskfail=submit)', 'prompt', 'moderation_blocked'));
    }
    sizes.set(task.id, body.size ?? '1280x720');
    if (sizes.size > 50_000) sizes.delete(sizes.keys().next().value!);
    return videoObject(task, body.size ?? '1280x720');
  });

  app.get<{ Params: { id: string } }>('/videos/:id', async (request, reply) => {
    const task = TASK_BOARD.get(request.params.id);
    if (!task || task.route !== 'videos') return notFound(reply, request.params.id);
    return videoObject(task, sizes.get(task.id) ?? '1280x720');
  });

  app.get<{ Params: { id: string } }>('/videos/:id/content', async (request, reply) => {
    const task = TASK_BOARD.get(request.params.id);
    if (!task || task.route !== 'videos') return notFound(reply, request.params.id);
    const view = viewOf(task);
    if (view.state !== 'succeeded')
      return reply.code(400).send(renderOpenaiError(400, `Video '${task.id}' is not completed (status ${STATUS[view.state]}).`, null, 'video_not_ready'));
    if (view.finishedAt! + task.controls.expireMs <= Date.now()) return notFound(reply, task.id);
    return reply.type('video/mp4').send(buildMp4(`${task.id}#0`, task.seconds));
  });
}
