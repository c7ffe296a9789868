// Claude on Vertex: rawPredict and streamRawPredict take the Messages protocol with the model in the path, no
// `model` in the body and `anthropic_version: "vertex-2023-10-16"`; `count-tokens:rawPredict` counts input
// tokens. Answers come from the Anthropic protocol's builders, errors in Anthropic's dialect.
import { CountTokensRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { resolveDrift, splitModelName } from '../../core/controls';
import { driftField } from '../../core/drift';
import { eventFrame } from '../../core/exchange';
import { renderAnthropicError } from '../anthropic/anthropic.errors';
import { inputTokensOf, messageBody, messageEvents, planMessage } from '../anthropic/messages.builder';
import { renderVertexError } from './vertex.errors';
import type { PublisherCall } from './vertex-models.routes';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const JsonObject = z.record(z.string(), z.unknown());
const render = (status: number, message: string): unknown => renderAnthropicError(status, message);

export async function answerClaude({ request, reply, exchange, model, method }: PublisherCall): Promise<unknown> {
  const bare = splitModelName(model).name;
  const refuse = (status: number, message: string) => reply.code(status).send(render(status, message));
  if (bare === 'count-tokens' && method === 'rawPredict') return { input_tokens: inputTokensOf(parseOrThrow(CountTokensRequest, request.body)) };
  if (method !== 'rawPredict' && method !== 'streamRawPredict') {
    return reply.code(404).send(renderVertexError(404, `Method ${method || '(none)'} is not found for publisher model ${bare}.`));
  }
  const raw = JsonObject.safeParse(request.body);
  if (!raw.success) return refuse(400, 'body: Input should be a valid dictionary');
  const { anthropic_version: version, model: named, ...rest } = raw.data;
  if (version === undefined) return refuse(400, 'anthropic_version: Field required');
  if (version !== VERTEX_ANTHROPIC_VERSION) return refuse(400, `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`);
  if (named !== undefined) return refuse(400, 'model: Extra inputs are not permitted');
  const body = parseOrThrow(MessagesRequest, { ...rest, model });
  const stream = method === 'streamRawPredict';
  if (!stream && body.stream === true) return refuse(400, 'stream: a streamed answer is asked of streamRawPredict, not rawPredict');
  const controls = await exchange.gate(request, reply, model, render, { stream });
  if (!controls) return reply;
  const drift = resolveDrift(request.headers, model);
  const plan = planMessage(body);
  exchange.stats.addTokens(plan.usage.input_tokens, plan.usage.output_tokens);
  const meta = { id: `msg_vrtx_${randomUUID().replace(/-/g, '').slice(0, 24)}`, model: bare };
  if (!stream) return driftField(messageBody(plan, meta), drift);
  const frames = messageEvents(plan, meta).map(({ event, data }) => eventFrame(event, driftField(data, drift)));
  await exchange.sendSse(request, reply, frames, controls);
  return reply;
}
