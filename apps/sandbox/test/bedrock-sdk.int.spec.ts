// Drives the sandbox's Bedrock protocol with @aws-sdk/client-bedrock-runtime and @anthropic-ai/bedrock-sdk,
// signed with the sandbox's test key, as an upstream client would.
import AnthropicBedrock from '@anthropic-ai/bedrock-sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  ModelNotReadyException,
  ModelStreamErrorException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
  type ContentBlock,
  type ConverseStreamOutput,
  type Message,
  type Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { BEDROCK_SANDBOX_REGION, BEDROCK_TEST_ACCESS_KEY_ID, BEDROCK_TEST_SECRET_ACCESS_KEY } from '../src/protocols/bedrock/bedrock.keys';
import { buildSandboxApp } from '../src/sandbox.app';

const CLAUDE = 'anthropic.claude-sonnet-4-20250514-v1:0';
const credentials = { accessKeyId: BEDROCK_TEST_ACCESS_KEY_ID, secretAccessKey: BEDROCK_TEST_SECRET_ACCESS_KEY };

let app: FastifyInstance;
let base: string;
let client: BedrockRuntimeClient;

beforeAll(async () => {
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  client = new BedrockRuntimeClient({
    region: BEDROCK_SANDBOX_REGION,
    endpoint: `${base}/bedrock`,
    credentials,
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler(),
  });
});

afterAll(async () => {
  client.destroy();
  await app.close();
});

const weather: Tool = {
  toolSpec: {
    name: 'get_weather',
    description: 'Weather now',
    inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
};

const ask = (text: string): Message => ({ role: 'user', content: [{ text }] });

async function collect(stream: AsyncIterable<ConverseStreamOutput> | undefined): Promise<ConverseStreamOutput[]> {
  const events: ConverseStreamOutput[] = [];
  for await (const event of stream ?? []) events.push(event);
  return events;
}

describe('sandbox Bedrock Converse via @aws-sdk/client-bedrock-runtime', () => {
  it('answers text with usage and metrics', async () => {
    const answer = await client.send(
      new ConverseCommand({ modelId: CLAUDE, system: [{ text: 'Be brief.' }], messages: [ask('Tell me the plan.')], inferenceConfig: { maxTokens: 64 } }),
    );
    expect(answer.output?.message?.content).toEqual([{ text: 'You said: Tell me the plan.' }]);
    expect(answer.stopReason).toBe('end_turn');
    expect(answer.usage).toEqual({ inputTokens: 8, outputTokens: 8, totalTokens: 16 });
    expect(typeof answer.metrics?.latencyMs).toBe('number');
    expect(answer.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('calls a tool and answers its result', async () => {
    const call = await client.send(new ConverseCommand({ modelId: CLAUDE, messages: [ask('Paris')], toolConfig: { tools: [weather] } }));
    expect(call.stopReason).toBe('tool_use');
    const use = call.output?.message?.content?.[0]?.toolUse;
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const answer = await client.send(
      new ConverseCommand({
        modelId: CLAUDE,
        toolConfig: { tools: [weather] },
        messages: [
          ask('Paris'),
          { role: 'assistant', content: call.output!.message!.content },
          { role: 'user', content: [{ toolResult: { toolUseId: use!.toolUseId, content: [{ json: { celsius: 18 } }], status: 'success' } }] },
        ],
      }),
    );
    expect(answer.output?.message?.content).toEqual([{ text: 'The get_weather tool returned: {"celsius":18}' }]);
    expect(answer.stopReason).toBe('end_turn');
  });

  it('takes an image as bytes and counts it', async () => {
    const image: ContentBlock = { image: { format: 'png', source: { bytes: Buffer.from('not really a png') } } };
    const answer = await client.send(new ConverseCommand({ modelId: CLAUDE, messages: [{ role: 'user', content: [{ text: 'What is this?' }, image] }] }));
    expect(answer.output?.message?.content).toEqual([{ text: 'You said: What is this?' }]);
    expect(answer.usage?.inputTokens).toBe(4 + 85);
  });

  it("thinks through Claude's additional fields, and takes its signed reasoning back", async () => {
    const thinking = { thinking: { type: 'enabled', budget_tokens: 1024 } };
    const answer = await client.send(
      new ConverseCommand({
        modelId: CLAUDE,
        messages: [ask('Why is the sky blue?')],
        additionalModelRequestFields: thinking,
        inferenceConfig: { maxTokens: 2048 },
      }),
    );
    const [reasoning, text] = answer.output!.message!.content!;
    expect(reasoning?.reasoningContent?.reasoningText?.text).toContain('Why is the sky blue?');
    expect(reasoning?.reasoningContent?.reasoningText?.signature).toMatch(/^sig_/);
    expect(text).toEqual({ text: 'You said: Why is the sky blue?' });
    const again = (content: ContentBlock[]) =>
      client.send(
        new ConverseCommand({
          modelId: CLAUDE,
          additionalModelRequestFields: thinking,
          inferenceConfig: { maxTokens: 2048 },
          messages: [ask('Why is the sky blue?'), { role: 'assistant', content }, ask('And at night?')],
        }),
      );
    await expect(again(answer.output!.message!.content!)).resolves.toMatchObject({ stopReason: 'end_turn' });
    const forged: ContentBlock = {
      reasoningContent: { reasoningText: { text: 'Something else.', signature: reasoning!.reasoningContent!.reasoningText!.signature } },
    };
    await expect(again([forged, text!])).rejects.toBeInstanceOf(ValidationException);
  });

  it('writes a cache point on the first call and reads it on the second', async () => {
    const system = [{ text: `You are the assistant of run ${randomUUID()}. Answer in one short line.` }, { cachePoint: { type: 'default' as const } }];
    const converse = () => client.send(new ConverseCommand({ modelId: CLAUDE, system, messages: [ask('Hello there.')] }));
    const first = await converse();
    expect(first.usage?.cacheWriteInputTokens).toBeGreaterThan(0);
    expect(first.usage?.cacheReadInputTokens).toBe(0);
    const second = await converse();
    expect(second.usage?.cacheReadInputTokens).toBe(first.usage?.cacheWriteInputTokens);
    expect(second.usage?.cacheWriteInputTokens).toBe(0);
    expect(second.usage?.totalTokens).toBe(first.usage?.totalTokens);
  });

  it('answers structured output as an instance of the schema given in outputConfig', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] };
    const answer = await client.send(
      new ConverseCommand({
        modelId: CLAUDE,
        messages: [ask('Plan a trip.')],
        outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(schema), name: 'trip' } } } },
      }),
    );
    const json = JSON.parse(answer.output!.message!.content![0]!.text!) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['city', 'days']);
    expect(typeof json.days).toBe('number');
    const refused = client.send(
      new ConverseCommand({
        modelId: CLAUDE,
        messages: [ask('Plan a trip.')],
        outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{not json' } } } },
      }),
    );
    await expect(refused).rejects.toBeInstanceOf(ValidationException);
  });

  it('reads a document block and stops at a stop sequence', async () => {
    const document: ContentBlock = { document: { format: 'txt', name: 'notes', source: { bytes: Buffer.from('Some notes.') } } };
    const answer = await client.send(
      new ConverseCommand({
        modelId: CLAUDE,
        messages: [{ role: 'user', content: [document, { text: 'Sum up the plan.' }] }],
        inferenceConfig: { stopSequences: ['plan'] },
      }),
    );
    expect(answer.output?.message?.content).toEqual([{ text: 'You said: [notes] Sum up the' }]);
    expect(answer.stopReason).toBe('stop_sequence');
  });

  it('says when a guardrail or the content filter stopped the answer', async () => {
    const guarded = await client.send(new ConverseCommand({ modelId: `${CLAUDE}@bedrock=guardrail`, messages: [ask('Hi.')] }));
    expect(guarded.stopReason).toBe('guardrail_intervened');
    const filtered = await client.send(new ConverseCommand({ modelId: `${CLAUDE}@bedrock=filtered`, messages: [ask('Hi.')] }));
    expect(filtered.stopReason).toBe('content_filtered');
  });

  it('accepts cross-region inference profiles and URL-encoded ARNs as model ids', async () => {
    for (const modelId of [`us.${CLAUDE}`, `arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.${CLAUDE}`, 'meta.llama3-1-70b-instruct-v1:0']) {
      const answer = await client.send(new ConverseCommand({ modelId, messages: [ask('Hi.')] }));
      expect(answer.output?.message?.content).toEqual([{ text: 'You said: Hi.' }]);
    }
  });

  it('pads a long answer and stops it at maxTokens', async () => {
    const long = await client.send(new ConverseCommand({ modelId: `${CLAUDE}@long=40`, messages: [ask('Hi.')] }));
    expect(long.usage?.outputTokens).toBe(40);
    const cut = await client.send(new ConverseCommand({ modelId: `${CLAUDE}@long=40`, messages: [ask('Hi.')], inferenceConfig: { maxTokens: 10 } }));
    expect(cut.stopReason).toBe('max_tokens');
    expect(cut.usage?.outputTokens).toBe(10);
  });

  it("answers Bedrock's exceptions, each as the SDK's own class", async () => {
    const fail = (modelId: string, messages: Message[] = [ask('Hi.')]) =>
      client.send(new ConverseCommand({ modelId, messages })).catch((error: unknown) => error);
    expect(await fail(`${CLAUDE}@fail=429`)).toBeInstanceOf(ThrottlingException);
    expect(await fail(`${CLAUDE}@fail=503`)).toBeInstanceOf(ServiceUnavailableException);
    expect(await fail(`${CLAUDE}@bedrock=not-ready`)).toBeInstanceOf(ModelNotReadyException);
    const invalid = await fail(CLAUDE, [{ role: 'assistant', content: [{ text: 'Hi.' }] }]);
    expect(invalid).toBeInstanceOf(ValidationException);
    expect((invalid as Error).message).toContain("'messages.0.role'");
    expect(await fail('unknown.model-v1')).toBeInstanceOf(ValidationException);
  });

  it('refuses an answer that drifted from the Converse shape (bytes that are not base64)', async () => {
    const error = await client.send(new ConverseCommand({ modelId: `${CLAUDE}@bedrock=drift`, messages: [ask('Hi.')] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/base64/i);
  });
});

describe('sandbox Bedrock ConverseStream via @aws-sdk/client-bedrock-runtime', () => {
  it('streams the same text as Converse, then the stop and the usage', async () => {
    const { stream } = await client.send(new ConverseStreamCommand({ modelId: CLAUDE, messages: [ask('Tell me the plan.')] }));
    const events = await collect(stream);
    expect(events[0]?.messageStart).toEqual({ role: 'assistant' });
    const text = events.map((event) => event.contentBlockDelta?.delta?.text ?? '').join('');
    expect(text).toBe('You said: Tell me the plan.');
    expect(events.filter((event) => event.contentBlockDelta).length).toBeGreaterThan(1);
    expect(events.find((event) => event.messageStop)?.messageStop?.stopReason).toBe('end_turn');
    expect(events.at(-1)?.metadata?.usage).toEqual({ inputTokens: 5, outputTokens: 8, totalTokens: 13 });
  });

  it('streams a tool call whose input deltas reassemble to the whole call', async () => {
    const whole = await client.send(new ConverseCommand({ modelId: CLAUDE, messages: [ask('Paris')], toolConfig: { tools: [weather] } }));
    const { stream } = await client.send(new ConverseStreamCommand({ modelId: CLAUDE, messages: [ask('Paris')], toolConfig: { tools: [weather] } }));
    const events = await collect(stream);
    const start = events.find((event) => event.contentBlockStart)?.contentBlockStart;
    expect(start?.start?.toolUse).toEqual({ toolUseId: whole.output!.message!.content![0]!.toolUse!.toolUseId, name: 'get_weather' });
    const pieces = events.filter((event) => event.contentBlockDelta?.delta?.toolUse).map((event) => event.contentBlockDelta!.delta!.toolUse!.input!);
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(''))).toEqual(whole.output!.message!.content![0]!.toolUse!.input);
    expect(events.find((event) => event.messageStop)?.messageStop?.stopReason).toBe('tool_use');
  });

  it('streams reasoning as text, then its signature', async () => {
    const { stream } = await client.send(
      new ConverseStreamCommand({
        modelId: CLAUDE,
        messages: [ask('Why?')],
        additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
        inferenceConfig: { maxTokens: 2048 },
      }),
    );
    const reasoning = (await collect(stream)).map((event) => event.contentBlockDelta?.delta?.reasoningContent).filter((delta) => delta !== undefined);
    expect(reasoning[0]?.text).toContain('Why?');
    expect(reasoning[1]?.signature).toMatch(/^sig_/);
  });

  it('fails part-way with an exception message', async () => {
    const { stream } = await client.send(new ConverseStreamCommand({ modelId: `${CLAUDE}@bedrock=stream-error`, messages: [ask('Tell me the plan.')] }));
    await expect(collect(stream)).rejects.toBeInstanceOf(ModelStreamErrorException);
  });
});

describe('sandbox Bedrock InvokeModel via @aws-sdk/client-bedrock-runtime', () => {
  const invoke = async (modelId: string, body: unknown) => {
    const answer = await client.send(
      new InvokeModelCommand({ modelId, contentType: 'application/json', accept: 'application/json', body: JSON.stringify(body) }),
    );
    return JSON.parse(Buffer.from(answer.body).toString('utf8')) as Record<string, unknown>;
  };

  it('embeds with Titan', async () => {
    const answer = await invoke('amazon.titan-embed-text-v2:0', { inputText: 'The quick brown fox', dimensions: 256, normalize: true });
    const embedding = answer.embedding as number[];
    expect(embedding).toHaveLength(256);
    expect(Math.hypot(...embedding)).toBeCloseTo(1, 5);
    expect(answer.inputTextTokenCount).toBe(4);
    await expect(invoke('amazon.titan-embed-text-v2:0', { inputText: 'x', dimensions: 300 })).rejects.toBeInstanceOf(ValidationException);
  });

  it('embeds with Cohere', async () => {
    const answer = await invoke('cohere.embed-english-v3', { texts: ['first text', 'second text'], input_type: 'search_document' });
    expect(answer.response_type).toBe('embeddings_floats');
    expect(answer.texts).toEqual(['first text', 'second text']);
    expect(answer.embeddings as number[][]).toHaveLength(2);
    expect((answer.embeddings as number[][])[0]).toHaveLength(1024);
    expect(typeof answer.id).toBe('string');
  });
});

describe('sandbox Bedrock InvokeModel via @anthropic-ai/bedrock-sdk', () => {
  let bedrock: AnthropicBedrock;
  beforeAll(() => {
    bedrock = new AnthropicBedrock({
      awsAccessKey: BEDROCK_TEST_ACCESS_KEY_ID,
      awsSecretKey: BEDROCK_TEST_SECRET_ACCESS_KEY,
      awsRegion: BEDROCK_SANDBOX_REGION,
      baseURL: `${base}/bedrock`,
      maxRetries: 0,
    });
  });

  it('creates a message', async () => {
    const message = await bedrock.messages.create({ model: CLAUDE, max_tokens: 64, messages: [{ role: 'user', content: 'Tell me the plan.' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: Tell me the plan.' }]);
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 8 });
  });

  it('streams a message, tool call included', async () => {
    const text = await bedrock.messages
      .stream({ model: `us.${CLAUDE}`, max_tokens: 64, messages: [{ role: 'user', content: 'Tell me the plan.' }] })
      .finalMessage();
    expect(text.content).toEqual([{ type: 'text', text: 'You said: Tell me the plan.' }]);
    const tool = await bedrock.messages
      .stream({
        model: CLAUDE,
        max_tokens: 64,
        tools: [{ name: 'get_weather', input_schema: weather.toolSpec!.inputSchema!.json as never }],
        messages: [{ role: 'user', content: 'Paris' }],
      })
      .finalMessage();
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
  });
});
