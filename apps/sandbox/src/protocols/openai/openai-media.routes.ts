// Media and vector routes of the OpenAI protocol: embeddings, moderations, images, speech, and
// multipart transcriptions/translations.
import { randomUUID } from 'node:crypto';
import { parseOrThrow } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildPng } from '../../core/media.builder';
import type { ProtocolDeps } from '../../core/protocol';
import { speechAudio, transcriptReply } from './audio.builder';
import { embeddingsBody, moderationBody } from './embeddings.builder';
import { renderOpenaiError } from './openai.errors';
import { EmbeddingRequest, ImageRequest, ModerationRequest, SpeechRequest, TranscriptionFields } from './openai.schemas';

const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

async function readMultipart(request: FastifyRequest): Promise<{ fields: Record<string, string>; file: { filename: string; bytes: Buffer } | null }> {
  const fields: Record<string, string> = {};
  let file: { filename: string; bytes: Buffer } | null = null;
  for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES } })) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') file = { filename: part.filename || 'audio', bytes };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file };
}

export function registerOpenaiMediaRoutes(app: FastifyInstance, { exchange, files }: ProtocolDeps): void {
  const gate = (request: FastifyRequest, reply: FastifyReply, model: string | undefined) =>
    exchange.gate(request, reply, model, renderOpenaiError, { stream: false });

  app.post('/embeddings', async (request, reply) => {
    const body = parseOrThrow(EmbeddingRequest, request.body);
    if (!(await gate(request, reply, body.model))) return reply;
    const result = embeddingsBody(body, body.model);
    exchange.stats.addTokens((result.usage as { prompt_tokens: number }).prompt_tokens, 0);
    return result;
  });

  app.post('/moderations', async (request, reply) => {
    const body = parseOrThrow(ModerationRequest, request.body);
    if (!(await gate(request, reply, body.model))) return reply;
    return moderationBody(body, `modr-${randomUUID().replace(/-/g, '').slice(0, 24)}`);
  });

  app.post('/images/generations', async (request, reply) => {
    const body = parseOrThrow(ImageRequest, request.body);
    if (!(await gate(request, reply, body.model))) return reply;
    const origin = `${request.protocol}://${request.host}`;
    const data = Array.from({ length: body.n ?? 1 }, (_, index) => {
      const png = buildPng(`${body.prompt}#${index}`);
      if (body.response_format === 'url') {
        return { url: `${origin}/_sandbox/files/${files.put({ contentType: 'image/png', bytes: png }, 'png')}`, revised_prompt: body.prompt };
      }
      return { b64_json: png.toString('base64'), revised_prompt: body.prompt };
    });
    return { created: Math.floor(Date.now() / 1000), data };
  });

  app.post('/audio/speech', async (request, reply) => {
    const body = parseOrThrow(SpeechRequest, request.body);
    if (!(await gate(request, reply, body.model))) return reply;
    const audio = speechAudio(body);
    return reply.header('content-type', audio.contentType).send(audio.bytes);
  });

  for (const task of ['transcribe', 'translate'] as const) {
    app.post(task === 'transcribe' ? '/audio/transcriptions' : '/audio/translations', async (request, reply) => {
      if (!request.isMultipart()) {
        return reply.code(400).send(renderOpenaiError(400, 'Expected a multipart/form-data body with a file.', 'file', null));
      }
      const { fields, file } = await readMultipart(request);
      const parsed = parseOrThrow(TranscriptionFields, fields);
      if (!file) return reply.code(400).send(renderOpenaiError(400, "Missing required parameter: 'file'.", 'file', 'missing_required_parameter'));
      if (!(await gate(request, reply, parsed.model))) return reply;
      const result = transcriptReply({ task, filename: file.filename, bytes: file.bytes, language: parsed.language }, parsed.response_format ?? 'json');
      if (result.kind === 'json') return result.body;
      return reply.header('content-type', result.contentType).send(result.body);
    });
  }
}
