// tool_choice in every direction: each form a family can say (auto / none / required / one named
// function, and parallel calls off) goes to each upstream protocol in that protocol's spelling, and
// reading the upstream's body back as its own family gives the same choice.
import { ChatCompletionRequest, GenerateContentRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { channel, gencToolRequest, msgcToolRequest, oaicToolRequest } from '../../test/fixtures/chat-fixtures';
import type { ChatIrRequest, IrFamily, IrToolChoice } from '../ir/chat-ir.schema';
import { fromGencRequest } from '../families/genc/genc-request.decoder';
import { fromMsgcRequest } from '../families/msgc/msgc-request.decoder';
import { fromOaicRequest } from '../families/oaic/oaic-request.decoder';
import { type ChatUpstream, UPSTREAM_CHAT } from './translation.registry';

/** Azure OpenAI sends OpenAI's bodies (azure-openai-chat.codec.spec.ts holds it to that): the matrix covers the three dialects. */
type ChatProtocol = Extract<ChatUpstream, 'openai' | 'anthropic' | 'gemini'>;

type Form = 'auto' | 'none' | 'required' | 'named';
const FORMS: Form[] = ['auto', 'none', 'required', 'named'];
const TOOL = 'get_weather';

/** How each family says each form. */
const SPOKEN: Record<IrFamily, Record<Form, Record<string, unknown>>> = {
  oaic: {
    auto: { tool_choice: 'auto' },
    none: { tool_choice: 'none' },
    required: { tool_choice: 'required' },
    named: { tool_choice: { type: 'function', function: { name: TOOL } } },
  },
  msgc: {
    auto: { tool_choice: { type: 'auto' } },
    none: { tool_choice: { type: 'none' } },
    required: { tool_choice: { type: 'any' } },
    named: { tool_choice: { type: 'tool', name: TOOL } },
  },
  genc: {
    auto: { toolConfig: { functionCallingConfig: { mode: 'AUTO' } } },
    none: { toolConfig: { functionCallingConfig: { mode: 'NONE' } } },
    required: { toolConfig: { functionCallingConfig: { mode: 'ANY' } } },
    named: { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [TOOL] } } },
  },
};

/** What each protocol's upstream body must hold for each form. */
const EXPECTED: Record<ChatProtocol, Record<Form, unknown>> = {
  openai: { auto: 'auto', none: 'none', required: 'required', named: { type: 'function', function: { name: TOOL } } },
  anthropic: { auto: { type: 'auto' }, none: { type: 'none' }, required: { type: 'any' }, named: { type: 'tool', name: TOOL } },
  gemini: {
    auto: { functionCallingConfig: { mode: 'AUTO' } },
    none: { functionCallingConfig: { mode: 'NONE' } },
    required: { functionCallingConfig: { mode: 'ANY' } },
    named: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [TOOL] } },
  },
};

const IR_CHOICE: Record<Form, IrToolChoice> = {
  auto: { type: 'auto', name: null },
  none: { type: 'none', name: null },
  required: { type: 'any', name: null },
  named: { type: 'tool', name: TOOL },
};

function decode(family: IrFamily, extra: Record<string, unknown>): ChatIrRequest {
  if (family === 'oaic') return fromOaicRequest(parseOrThrow(ChatCompletionRequest, oaicToolRequest(extra)));
  if (family === 'msgc') return fromMsgcRequest(parseOrThrow(MessagesRequest, msgcToolRequest(extra)));
  const body = gencToolRequest();
  return fromGencRequest(parseOrThrow(GenerateContentRequest, { ...body, ...extra }), 'any-chat', false);
}

/** The upstream body read back as the family that natively speaks its protocol. */
function readBack(protocol: ChatProtocol, body: Record<string, unknown>): ChatIrRequest {
  if (protocol === 'openai') return fromOaicRequest(parseOrThrow(ChatCompletionRequest, body));
  if (protocol === 'anthropic') return fromMsgcRequest(parseOrThrow(MessagesRequest, body));
  return fromGencRequest(parseOrThrow(GenerateContentRequest, body), 'any-chat', false);
}

const FAMILIES: IrFamily[] = ['oaic', 'msgc', 'genc'];
const PROTOCOLS: ChatProtocol[] = ['openai', 'anthropic', 'gemini'];
const CASES = FAMILIES.flatMap((family) => PROTOCOLS.flatMap((protocol) => FORMS.map((form) => [family, protocol, form] as const)));

describe('tool_choice across the 3×3 matrix', () => {
  it.each(CASES)('%s tool_choice %s → %s upstream round-trips', (family, protocol, form) => {
    const ir = decode(family, SPOKEN[family][form]);
    expect(ir.toolChoice).toEqual(IR_CHOICE[form]);
    const body = JSON.parse(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol)).body as string) as Record<string, unknown>;
    expect(body[protocol === 'gemini' ? 'toolConfig' : 'tool_choice']).toEqual(EXPECTED[protocol][form]);
    expect(readBack(protocol, body).toolChoice).toEqual(IR_CHOICE[form]);
  });

  it.each(PROTOCOLS)('parallel tool calls off: oaic parallel_tool_calls and msgc disable_parallel_tool_use reach %s', (protocol) => {
    for (const ir of [decode('oaic', { parallel_tool_calls: false }), decode('msgc', { tool_choice: { type: 'auto', disable_parallel_tool_use: true } })]) {
      expect(ir.parallelToolCalls).toBe(false);
      const body = JSON.parse(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol)).body as string) as Record<string, unknown>;
      if (protocol === 'openai') expect(body.parallel_tool_calls).toBe(false);
      if (protocol === 'anthropic') expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
      // Gemini has no such switch: the request still goes, one call or several being the model's choice.
      if (protocol === 'gemini') expect(JSON.stringify(body)).not.toContain('parallel');
      if (protocol !== 'gemini') expect(readBack(protocol, body).parallelToolCalls).toBe(false);
    }
  });

  it('genc VALIDATED mode is auto with schema adherence, not a forced call', () => {
    expect(decode('genc', { toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } } }).toolChoice).toEqual(IR_CHOICE.auto);
  });
});
