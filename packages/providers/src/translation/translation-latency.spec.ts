// Translation must stay far below the 0.3 ms p50 budget the gateway allows it (issue 4).
import { ChatCompletionRequest, GenerateContentRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { channel, gencToolRequest, msgcToolRequest, oaicToolRequest, TOOL_ANSWER } from '../../test/fixtures/chat-fixtures';
import { fromGencRequest } from '../families/genc/genc-request.decoder';
import { fromMsgcRequest } from '../families/msgc/msgc-request.decoder';
import { fromOaicRequest } from '../families/oaic/oaic-request.decoder';
import { FAMILY_CHAT, UPSTREAM_CHAT } from './translation.registry';

function p50(run: () => void): number {
  for (let i = 0; i < 200; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const start = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1]!;
}

const context = { model: 'any-chat', fallbackId: 'x', estimatedInputTokens: 0 };

describe('translation latency', () => {
  it('msgc → OpenAI upstream: request and answer under 0.3 ms p50', () => {
    const body = parseOrThrow(MessagesRequest, msgcToolRequest());
    const answer = JSON.stringify(TOOL_ANSWER.openai);
    const ms = p50(() => {
      UPSTREAM_CHAT.openai.toRequest(fromMsgcRequest(body), channel('openai'));
      JSON.stringify(FAMILY_CHAT.msgc.toResponse(UPSTREAM_CHAT.openai.fromResponse(JSON.parse(answer), context)));
    });
    expect(ms).toBeLessThan(0.3);
  });

  it('genc → Anthropic upstream and oaic → Gemini upstream: under 0.3 ms p50', () => {
    const genc = parseOrThrow(GenerateContentRequest, gencToolRequest());
    const oaic = parseOrThrow(ChatCompletionRequest, oaicToolRequest());
    const anthropic = JSON.stringify(TOOL_ANSWER.anthropic);
    const gemini = JSON.stringify(TOOL_ANSWER.gemini);
    expect(
      p50(() => {
        UPSTREAM_CHAT.anthropic.toRequest(fromGencRequest(genc, 'm', false), channel('anthropic'));
        JSON.stringify(FAMILY_CHAT.genc.toResponse(UPSTREAM_CHAT.anthropic.fromResponse(JSON.parse(anthropic), context)));
      }),
    ).toBeLessThan(0.3);
    expect(
      p50(() => {
        UPSTREAM_CHAT.gemini.toRequest(fromOaicRequest(oaic), channel('gemini'));
        JSON.stringify(FAMILY_CHAT.oaic.toResponse(UPSTREAM_CHAT.gemini.fromResponse(JSON.parse(gemini), context)));
      }),
    ).toBeLessThan(0.3);
  });
});
