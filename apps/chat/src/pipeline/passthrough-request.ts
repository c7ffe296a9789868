// Same-protocol calls: the client's body goes to the upstream as sent (fields we do not name included),
// with only the model swapped for the channel's upstream name; answers get the public model id back.
import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import { fromUpstream, UPSTREAM_CHAT, type ChatUpstream, type IrFamily, type UpstreamRequest } from '@gateway/providers';

export function passThroughRequest(upstream: ChatUpstream, body: Record<string, unknown>, channel: CatalogChannel, stream: boolean): UpstreamRequest {
  const passThrough = UPSTREAM_CHAT[upstream].passThrough;
  if (!passThrough) throw new GatewayError('internal', `The ${upstream} upstream speaks no client family's wire format.`);
  return passThrough(body, channel, stream);
}

/** Where each family's answers name the model. */
const MODEL_FIELD: Record<IrFamily, string> = { oaic: 'model', msgc: 'model', genc: 'modelVersion' };

/** A same-protocol answer (already checked by the protocol's decoder) with the public model id. */
export function passThroughAnswer(family: IrFamily, json: unknown, modelId: string): Record<string, unknown> {
  if (family === 'oaic') return fromUpstream('chat', json, modelId);
  return { ...(json as Record<string, unknown>), [MODEL_FIELD[family]]: modelId };
}

/**
 * Rewrites the first model field of a relayed stream event to the public id without re-encoding it. Only
 * the top-level field can match: inside tool arguments a quote is escaped, so `"model":"` never appears.
 */
export function streamModelRewriter(family: IrFamily, modelId: string): (data: string) => string {
  const pattern = new RegExp(`"${MODEL_FIELD[family]}":"(?:[^"\\\\]|\\\\.)*"`);
  const replacement = `"${MODEL_FIELD[family]}":${JSON.stringify(modelId)}`;
  return (data) => data.replace(pattern, () => replacement);
}
