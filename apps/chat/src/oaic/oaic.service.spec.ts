import { GatewayError, type CatalogChannel, type OaicCallPayload, type UsageEvent } from '@gateway/contracts';
import type { ResponseCacheService } from '../cache/response-cache.service';
import type { ChatPipeline } from '../pipeline/chat-pipeline.service';
import type { ResponsesService } from '../responses/responses.service';
import { MeteringService } from '../usage/metering.service';
import type { MeteredStream } from '../usage/metered-stream';
import type { UsagePublisher } from '../usage/usage.publisher';
import type { OaicAudioService } from './oaic-audio.service';
import type { OaicOperationsService } from './oaic-operations.service';
import type { OaicMediaImagesService } from './oaic-media-images.service';
import type { OaicRequestService, PreparedCall } from './oaic-request.service';
import type { OaicSpeechService } from './oaic-speech.service';
import { OaicService } from './oaic.service';

const payload: OaicCallPayload = { requestId: 'req-1', tenantId: 't1', keyId: 'k1', keyKind: 'payg', route: 'oaic.responses', body: {} };
const anthropic: CatalogChannel = {
  id: 'ch-a',
  providerId: 'p',
  protocol: 'anthropic',
  baseUrl: 'https://upstream.example',
  apiKey: 'k',
  upstreamModel: 'up',
  priority: 0,
  weight: 1,
  nativeBatch: false,
  assistants: false,
};

/** The service over stand-ins: a responses request on an Anthropic channel, answered by `answer`. */
function service(answer: (call: PreparedCall<'responses'>) => Promise<unknown>) {
  const events: UsageEvent[] = [];
  const publisher = { record: (event: UsageEvent) => events.push(event) } as unknown as UsagePublisher;
  const requests = {
    parseCaller: (value: unknown) => value as OaicCallPayload,
    prepare: async (_op: string, caller: OaicCallPayload, metered: MeteredStream): Promise<PreparedCall> => {
      metered.meter.modelId = 'public-model';
      return {
        op: 'responses',
        body: { model: 'public-model', input: 'hi' },
        caller,
        modelId: 'public-model',
        route: {} as PreparedCall['route'],
        channels: [anthropic],
        metered,
      };
    },
  } as unknown as OaicRequestService;
  const viaChat = { oaic: answer } as unknown as ChatPipeline;
  const oaic = new OaicService(
    requests,
    {} as OaicOperationsService,
    {} as OaicSpeechService,
    {} as OaicAudioService,
    new MeteringService(publisher),
    {} as ResponsesService,
    viaChat,
    {} as OaicMediaImagesService,
    {} as ResponseCacheService,
  );
  return { oaic, events };
}

describe('OaicService usage', () => {
  it('records one ok event for an answered request', async () => {
    const { oaic, events } = service(async (call) => {
      call.metered.succeed();
      return { id: 'resp_1' };
    });
    await oaic.run('responses', payload, new AbortController().signal);
    expect(events.map((e) => e.outcome)).toEqual(['ok']);
  });

  it('adds no failure event when the request fails after its answer was metered (storing the response)', async () => {
    const { oaic, events } = service(async (call) => {
      call.metered.meter.tokens = { prompt: 3, completion: 5 };
      call.metered.succeed();
      throw new GatewayError('internal', 'The response could not be stored.');
    });
    await expect(oaic.run('responses', payload, new AbortController().signal)).rejects.toThrow('could not be stored');
    expect(events.map((e) => [e.outcome, e.status, e.completionTokens])).toEqual([['ok', 200, 5]]);
  });

  it('records a failure before any answer once, with the model already known', async () => {
    const { oaic, events } = service(async () => {
      throw new GatewayError('upstream_error', 'The upstream answered HTTP 502.', null, 502);
    });
    await expect(oaic.run('responses', payload, new AbortController().signal)).rejects.toThrow('HTTP 502');
    expect(events.map((e) => [e.outcome, e.status, e.modelId])).toEqual([['upstream_error', 502, 'public-model']]);
  });
});
