// Converse and ConverseStream: one answer planned from the request and the controls, sent whole or as
// an event stream (an exception message when the stream is told to fail part-way).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxControls } from '../../core/controls';
import type { ProtocolDeps } from '../../core/protocol';
import { planMessage } from '../anthropic/messages.builder';
import { parseBody } from './bedrock.body';
import { resolveBedrockControls, type BedrockControls } from './bedrock.controls';
import { BedrockError, QUOTA_MESSAGE, renderBedrockError } from './bedrock.errors';
import { modelKindOf } from './bedrock-model';
import { asMessagesRequest, converseBody, converseEvents, lengthen, stopReasonOf, type ConverseAnswer } from './converse.builder';
import { ConverseRequest } from './converse.schema';
import { EVENT_STREAM_CONTENT_TYPE, eventMessage, exceptionMessage } from './event-stream.frames';

type ModelRoute = { Params: { modelId: string } };

/** Where a stream told to fail part-way breaks off: after its first events. */
const STREAM_ERROR_AFTER = 3;

function answerOf(modelId: string, request: ConverseRequest, controls: BedrockControls, startedAt: number): ConverseAnswer {
  const kind = modelKindOf(modelId);
  if (kind === 'titan-embed' || kind === 'cohere-embed')
    throw new BedrockError(
      400,
      'ValidationException',
      "This action doesn't support the model that you provided. Try again with a supported text or chat model.",
    );
  if (kind !== 'claude' && request.additionalModelRequestFields?.thinking)
    throw new BedrockError(400, 'ValidationException', 'The model returned the following errors: extraneous key [thinking] is not permitted');
  if (controls.mode === 'not-ready')
    throw new BedrockError(
      429,
      'ModelNotReadyException',
      'Model is not ready to serve inference requests. The AWS SDK will automatically retry the operation.',
    );
  if (controls.mode === 'quota') throw new BedrockError(400, 'ServiceQuotaExceededException', QUOTA_MESSAGE);
  const messages = asMessagesRequest(modelId, request);
  let plan = planMessage(messages);
  if (controls.longTokens !== null) plan = lengthen(plan, controls.longTokens, messages.max_tokens);
  const stopReason = controls.mode === 'guardrail' ? 'guardrail_intervened' : controls.mode === 'filtered' ? 'content_filtered' : stopReasonOf(plan);
  return { plan, stopReason, latencyMs: Date.now() - startedAt };
}

export const bedrockConverseRoutes: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  const render = (status: number, message: string): unknown => renderBedrockError(status, message);

  async function prepare(request: FastifyRequest<ModelRoute>, reply: FastifyReply, stream: boolean) {
    const startedAt = Date.now();
    const modelId = request.params.modelId;
    const body = parseBody(ConverseRequest, request.body);
    const bedrock = resolveBedrockControls(request.headers, modelId);
    modelKindOf(modelId);
    const controls: SandboxControls | null = await exchange.gate(request, reply, modelId, render, { stream });
    if (!controls) return null;
    const answer = answerOf(modelId, body, bedrock, startedAt);
    exchange.stats.addTokens(answer.plan.usage.input_tokens, answer.plan.usage.output_tokens);
    return { answer, controls, bedrock };
  }

  app.post<ModelRoute>('/model/:modelId/converse', async (request, reply) => {
    const prepared = await prepare(request, reply, false);
    if (!prepared) return reply;
    const body = converseBody(prepared.answer);
    // Redacted reasoning whose bytes are not base64: the SDK must refuse it, proof its spec catches a drifted shape.
    if (prepared.bedrock.mode === 'drift')
      return { ...body, output: { message: { role: 'assistant', content: [{ reasoningContent: { redactedContent: 'not base64!' } }] } } };
    return body;
  });

  app.post<ModelRoute>('/model/:modelId/converse-stream', async (request, reply) => {
    const prepared = await prepare(request, reply, true);
    if (!prepared) return reply;
    const events = converseEvents(prepared.answer);
    const frames = events.map(({ event, payload }) => eventMessage(event, payload));
    if (prepared.bedrock.mode === 'stream-error')
      frames.splice(
        STREAM_ERROR_AFTER,
        frames.length,
        exceptionMessage('modelStreamErrorException', 'The model stopped answering part-way (sandbox stream-error).'),
      );
    await exchange.sendStream(request, reply, frames, prepared.controls, EVENT_STREAM_CONTENT_TYPE);
    return reply;
  });
};
