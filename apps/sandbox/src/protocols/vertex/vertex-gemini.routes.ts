// Gemini's methods on a Vertex publisher model: generateContent, streamGenerateContent (SSE with `alt=sse`,
// else one JSON array streamed element by element), countTokens, and the embeddings methods (`:predict`,
// `:embedContent`) of models named for embedding. Answers come from the Gemini protocol's builders.
import { GenerateContentBody, parseOrThrow } from '@gateway/contracts';
import { randomUUID } from 'node:crypto';
import { resolveDrift, splitModelName } from '../../core/controls';
import { driftField } from '../../core/drift';
import { dataFrame } from '../../core/exchange';
import { generateBody, generateChunks, planGenerate, promptTokensOf } from '../gemini/generate.builder';
import { sendJsonArrayStream } from './json-array.stream';
import { EmbedContentBody, embedContentBody, PredictEmbeddingsBody, predictEmbeddingsBody } from './vertex-embeddings.builder';
import { renderVertexError } from './vertex.errors';
import type { PublisherCall } from './vertex-models.routes';

const render = (status: number, message: string): unknown => renderVertexError(status, message);

/** Unlike the Gemini API, Vertex requires each content's role. */
const INVALID_ROLE = 'Please use a valid role: user, model.';
const rolesValid = (body: GenerateContentBody): boolean => body.contents.every((content) => content.role === 'user' || content.role === 'model');

export async function answerGemini({ request, reply, exchange, model, method, alt }: PublisherCall): Promise<unknown> {
  const bare = splitModelName(model).name;
  const drift = resolveDrift(request.headers, model);
  const embedding = bare.includes('embed');
  const refuse = (status: number, message: string) => reply.code(status).send(render(status, message));
  switch (method) {
    case 'generateContent':
    case 'streamGenerateContent': {
      if (embedding) return refuse(400, `Model ${bare} does not support ${method}.`);
      const body = parseOrThrow(GenerateContentBody, request.body);
      if (!rolesValid(body)) return refuse(400, INVALID_ROLE);
      if (body.generationConfig?.responseModalities?.includes('IMAGE') && !bare.includes('image')) {
        return refuse(400, `Model ${bare} does not support the requested response modalities: image`);
      }
      const stream = method === 'streamGenerateContent';
      const controls = await exchange.gate(request, reply, model, render, { stream });
      if (!controls) return reply;
      const plan = planGenerate(body, bare);
      exchange.stats.addTokens(plan.usage.promptTokenCount, plan.usage.candidatesTokenCount);
      const meta = { id: randomUUID().replace(/-/g, '').slice(0, 22), model: bare };
      const createTime = new Date().toISOString();
      if (!stream) return driftField({ ...generateBody(plan, meta), createTime }, drift);
      const chunks = generateChunks(plan, meta).map((chunk) => driftField({ ...chunk, createTime }, drift));
      if (alt === 'sse') await exchange.sendSse(request, reply, chunks.map(dataFrame), controls);
      else await sendJsonArrayStream(exchange, request, reply, chunks, controls);
      return reply;
    }
    case 'countTokens': {
      const body = parseOrThrow(GenerateContentBody, request.body);
      if (!rolesValid(body)) return refuse(400, INVALID_ROLE);
      const characters = body.contents.flatMap((content) => content.parts).reduce((sum, part) => sum + (part.text?.length ?? 0), 0);
      return driftField({ totalTokens: promptTokensOf(body), totalBillableCharacters: characters }, drift);
    }
    case 'predict':
    case 'embedContent': {
      if (!embedding) return refuse(400, `Model ${bare} does not support ${method}.`);
      const built =
        method === 'predict'
          ? predictEmbeddingsBody(parseOrThrow(PredictEmbeddingsBody, request.body))
          : embedContentBody(parseOrThrow(EmbedContentBody, request.body));
      const controls = await exchange.gate(request, reply, model, render, { stream: false });
      if (!controls) return reply;
      exchange.stats.addTokens(built.tokens, 0);
      return driftField(built.answer, drift);
    }
    default:
      return refuse(404, `Method ${method || '(none)'} is not found for publisher model ${bare}.`);
  }
}
