// InvokeModel and InvokeModelWithResponseStream: the body is the model maker's own (Titan, Cohere,
// Claude's Messages); the stream carries each Messages event base64-encoded in a `chunk` event.
import type { FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ProtocolDeps } from '../../core/protocol';
import { messageBody, messageEvents, planMessage, type MessagePlan } from '../anthropic/messages.builder';
import { parseBody } from './bedrock.body';
import { resolveBedrockControls } from './bedrock.controls';
import { BedrockError, QUOTA_MESSAGE, renderBedrockError } from './bedrock.errors';
import { modelKindOf } from './bedrock-model';
import { EVENT_STREAM_CONTENT_TYPE, eventMessage, exceptionMessage } from './event-stream.frames';
import { BedrockClaudeRequest, CohereEmbedRequest, TitanEmbedRequest, cohereEmbeddings, titanEmbedding, type InvokeAnswer } from './invoke.builder';

type ModelRoute = { Params: { modelId: string } };

const COHERE_DIMENSIONS = 1024;

function claudePlan(modelId: string, body: unknown): MessagePlan {
  if (modelKindOf(modelId) !== 'claude')
    throw new BedrockError(
      400,
      'ValidationException',
      'The sandbox answers InvokeModel for Claude, Titan and Cohere embedding models; use Converse for this model.',
    );
  return planMessage({ ...parseBody(BedrockClaudeRequest, body), model: modelId });
}

function invoke(modelId: string, body: unknown): InvokeAnswer {
  const kind = modelKindOf(modelId);
  if (kind === 'titan-embed') return titanEmbedding(parseBody(TitanEmbedRequest, body));
  if (kind === 'cohere-embed') return cohereEmbeddings(parseBody(CohereEmbedRequest, body), COHERE_DIMENSIONS);
  const plan = claudePlan(modelId, body);
  const usage = plan.usage;
  return {
    body: messageBody(plan, { id: `msg_bdrk_${randomUUID().replace(/-/g, '').slice(0, 24)}`, model: modelId }),
    inputTokens: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
    outputTokens: usage.output_tokens,
  };
}

export const bedrockInvokeRoutes: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  const render = (status: number, message: string): unknown => renderBedrockError(status, message);

  app.post<ModelRoute>('/model/:modelId/invoke', async (request, reply) => {
    const startedAt = Date.now();
    const modelId = request.params.modelId;
    const answer = invoke(modelId, request.body);
    const bedrock = resolveBedrockControls(request.headers, modelId);
    const controls = await exchange.gate(request, reply, modelId, render, { stream: false });
    if (!controls) return reply;
    if (bedrock.mode === 'not-ready') throw new BedrockError(429, 'ModelNotReadyException', 'Model is not ready to serve inference requests.');
    if (bedrock.mode === 'quota') throw new BedrockError(400, 'ServiceQuotaExceededException', QUOTA_MESSAGE);
    exchange.stats.addTokens(answer.inputTokens, answer.outputTokens);
    return reply
      .header('content-type', 'application/json')
      .header('x-amzn-bedrock-input-token-count', String(answer.inputTokens))
      .header('x-amzn-bedrock-output-token-count', String(answer.outputTokens))
      .header('x-amzn-bedrock-invocation-latency', String(Date.now() - startedAt))
      .send(JSON.stringify(answer.body));
  });

  app.post<ModelRoute>('/model/:modelId/invoke-with-response-stream', async (request, reply) => {
    const startedAt = Date.now();
    const modelId = request.params.modelId;
    const plan = claudePlan(modelId, request.body);
    const bedrock = resolveBedrockControls(request.headers, modelId);
    const controls = await exchange.gate(request, reply, modelId, render, { stream: true });
    if (!controls) return reply;
    exchange.stats.addTokens(plan.usage.input_tokens, plan.usage.output_tokens);
    const events = messageEvents(plan, { id: `msg_bdrk_${randomUUID().replace(/-/g, '').slice(0, 24)}`, model: modelId });
    const frames = events.map(({ data }) => {
      const payload =
        data.type === 'message_stop'
          ? {
              ...data,
              'amazon-bedrock-invocationMetrics': {
                inputTokenCount: plan.usage.input_tokens,
                outputTokenCount: plan.usage.output_tokens,
                invocationLatency: Date.now() - startedAt,
                firstByteLatency: Date.now() - startedAt,
              },
            }
          : data;
      return eventMessage('chunk', { bytes: Buffer.from(JSON.stringify(payload)).toString('base64') });
    });
    if (bedrock.mode === 'stream-error')
      frames.splice(3, frames.length, exceptionMessage('modelStreamErrorException', 'The model stopped answering part-way (sandbox stream-error).'));
    await exchange.sendStream(request, reply, frames, controls, EVENT_STREAM_CONTENT_TYPE);
    return reply;
  });
};
