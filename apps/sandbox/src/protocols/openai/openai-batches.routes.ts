// OpenAI's files and batches routes, enough for a gateway forwarding whole batches: upload a file
// (multipart), retrieve it and its content, create, retrieve and cancel a batch (run by the BatchBoard).
import { parseOrThrow } from '@gateway/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ProtocolDeps } from '../../core/protocol';
import { BatchBoard, type BoardFile } from './batch-board';
import { BATCH_ENDPOINTS } from './batch-line.builder';
import { renderOpenaiError } from './openai.errors';

/** OpenAI takes batch input files up to 200 MB. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;

const BatchCreate = z
  .object({
    input_file_id: z.string().min(1),
    endpoint: z.enum(BATCH_ENDPOINTS),
    completion_window: z.literal('24h'),
    metadata: z.record(z.string(), z.string()).nullish(),
  })
  .loose();

/** The record without its bytes. */
function fileObject(file: BoardFile): Omit<BoardFile, 'content'> {
  const { content: _content, ...record } = file;
  return record;
}

export function registerOpenaiBatchRoutes(app: FastifyInstance, { exchange, holds }: ProtocolDeps): void {
  const board = new BatchBoard(exchange.stats, holds);
  const missing = (what: string, id: string, param: string) => renderOpenaiError(404, `No such ${what}: '${id}'`, param, null);

  app.post('/files', async (request, reply) => {
    if (!request.isMultipart()) return reply.code(400).send(renderOpenaiError(400, 'Expected a multipart/form-data body with a file.', 'file', null));
    let purpose: string | undefined;
    let upload: { filename: string; bytes: Buffer } | null = null;
    for await (const part of request.parts({ limits: { fileSize: MAX_FILE_BYTES } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') upload = { filename: part.filename || 'upload.jsonl', bytes };
      } else if (part.fieldname === 'purpose' && typeof part.value === 'string') {
        purpose = part.value;
      }
    }
    if (!upload) return reply.code(400).send(renderOpenaiError(400, "Missing required parameter: 'file'.", 'file', 'missing_required_parameter'));
    if (!purpose) return reply.code(400).send(renderOpenaiError(400, "Missing required parameter: 'purpose'.", 'purpose', 'missing_required_parameter'));
    return fileObject(board.addFile(upload.filename, purpose, upload.bytes));
  });

  app.get<{ Params: { id: string } }>('/files/:id', async (request, reply) => {
    const file = board.file(request.params.id);
    return file ? fileObject(file) : reply.code(404).send(missing('file', request.params.id, 'file_id'));
  });

  app.get<{ Params: { id: string } }>('/files/:id/content', async (request, reply) => {
    const file = board.file(request.params.id);
    if (!file) return reply.code(404).send(missing('file', request.params.id, 'file_id'));
    return reply.header('content-type', 'application/octet-stream').send(file.content);
  });

  app.post('/batches', async (request, reply) => {
    const body = parseOrThrow(BatchCreate, request.body);
    const input = board.file(body.input_file_id);
    if (!input) return reply.code(404).send(missing('file', body.input_file_id, 'input_file_id'));
    if (input.purpose !== 'batch') {
      return reply
        .code(400)
        .send(renderOpenaiError(400, `The input file must have purpose 'batch', not '${input.purpose}'.`, 'input_file_id', 'invalid_value'));
    }
    // Each line's latency and forced failure come from its model's controls, with this request's headers.
    return board.create(input, body.endpoint, body.metadata ?? null, (model) => exchange.controls(request, model));
  });

  app.get<{ Params: { id: string } }>('/batches/:id', async (request, reply) => {
    const batch = board.batch(request.params.id);
    return batch ?? reply.code(404).send(missing('batch', request.params.id, 'batch_id'));
  });

  app.post<{ Params: { id: string } }>('/batches/:id/cancel', async (request, reply) => {
    const batch = board.batch(request.params.id);
    return batch ? board.cancel(batch) : reply.code(404).send(missing('batch', request.params.id, 'batch_id'));
  });
}
