// The sandbox's Azure OpenAI judged by the vendor's own client: openai's AzureOpenAI on the deployment
// paths with an api-version, keyed by `api-key` and by an Entra ID token from @azure/identity.
import { ClientSecretCredential, getBearerTokenProvider } from '@azure/identity';
import OpenAI, { AzureOpenAI, AuthenticationError, BadRequestError } from 'openai';
import { azureSandbox } from './support/azure-sandbox';

const sandbox = azureSandbox();
const API_VERSION = '2024-10-21';
const messages = [{ role: 'user' as const, content: 'Tell me, what is the plan?' }];

const keyed = (apiKey = 'sandbox-azure-key') =>
  new AzureOpenAI({ endpoint: `${sandbox.base}/azure`, apiKey, apiVersion: API_VERSION, maxRetries: 0, timeout: 5000 });

describe('sandbox Azure OpenAI via the AzureOpenAI client', () => {
  it('answers a chat on the deployment path with Azure content-filter results, and streams the same text', async () => {
    const completion = await keyed().chat.completions.create({ model: 'sandbox-gpt', messages });
    expect(completion.choices[0]!.message.content).toBe('You said: Tell me, what is the plan?');
    expect(completion.model).toBe('sandbox-gpt');
    const annotated = completion as unknown as { prompt_filter_results: { content_filter_results: Record<string, unknown> }[] };
    expect(annotated.prompt_filter_results[0]!.content_filter_results.hate).toEqual({ filtered: false, severity: 'safe' });

    const stream = await keyed().chat.completions.create({ model: 'sandbox-gpt', messages, stream: true, stream_options: { include_usage: true } });
    let joined = '';
    let finish: string | null | undefined;
    let usage: unknown;
    for await (const chunk of stream) {
      joined += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(joined).toBe(completion.choices[0]!.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(completion.usage);
  });

  it('embeds on the deployment path', async () => {
    const result = await keyed().embeddings.create({ model: 'sandbox-embedding', input: ['one', 'two'] });
    expect(result.data).toHaveLength(2);
    expect(result.data[0]!.embedding.length).toBeGreaterThan(0);
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('generates an image on the deployment path', async () => {
    const image = await keyed().images.generate({ model: 'sandbox-image', prompt: 'a red square', n: 1 });
    expect(Buffer.from(image.data![0]!.b64_json!, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('answers a response beside the deployments, whole and streamed alike', async () => {
    const whole = await keyed().responses.create({ model: 'sandbox-gpt', input: 'What is the plan?' });
    expect(whole.output_text).toBe('You said: What is the plan?');
    const stream = await keyed().responses.create({ model: 'sandbox-gpt', input: 'What is the plan?', stream: true });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(text).toBe(whole.output_text);
    expect(completed).toBe(true);
  });

  it('serves the v1 paths with the model in the body and no api-version', async () => {
    const v1 = new OpenAI({
      baseURL: `${sandbox.base}/azure/openai/v1`,
      apiKey: 'unused',
      defaultHeaders: { 'api-key': 'sandbox-azure-key', authorization: null },
      maxRetries: 0,
    });
    const completion = await v1.chat.completions.create({ model: 'sandbox-gpt', messages });
    expect(completion.choices[0]!.message.content).toBe('You said: Tell me, what is the plan?');
  });

  it('refuses a prompt that trips the content filter with Azure error and inner error', async () => {
    const refused = keyed().chat.completions.create({ model: 'sandbox-gpt', messages: [{ role: 'user', content: 'hi [[azure:filter-prompt]]' }] });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    const error = (await refused.catch((e: unknown) => e)) as BadRequestError;
    expect(error.code).toBe('content_filter');
    expect(error.error).toMatchObject({ innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { hate: { filtered: true } } } });
  });

  it('cuts an answer the completion filter stops, with finish_reason content_filter', async () => {
    const completion = await keyed().chat.completions.create({ model: 'sandbox-gpt', messages: [{ role: 'user', content: '[[azure:filter-completion]] go' }] });
    expect(completion.choices[0]!.finish_reason).toBe('content_filter');
  });

  it('refuses a wrong key, and a deployment path without an api-version', async () => {
    await expect(keyed('wrong-key').chat.completions.create({ model: 'sandbox-gpt', messages })).rejects.toBeInstanceOf(AuthenticationError);
    const response = await fetch(`${sandbox.base}/azure/openai/deployments/sandbox-gpt/chat/completions`, {
      method: 'POST',
      headers: { 'api-key': 'sandbox-azure-key', 'content-type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });

  it('takes an Entra ID token the sandbox issued to ClientSecretCredential', async () => {
    const before = await sandbox.issued();
    const credential = new ClientSecretCredential('sandbox-tenant', 'sandbox-client', 'sandbox-client-secret', {
      authorityHost: sandbox.authority,
      disableInstanceDiscovery: true,
      tlsOptions: { ca: sandbox.ca },
    });
    const client = new AzureOpenAI({
      endpoint: `${sandbox.base}/azure`,
      azureADTokenProvider: getBearerTokenProvider(credential, 'https://cognitiveservices.azure.com/.default'),
      apiVersion: API_VERSION,
      maxRetries: 0,
    });
    const completion = await client.chat.completions.create({ model: 'sandbox-gpt', messages });
    expect(completion.choices[0]!.message.content).toBe('You said: Tell me, what is the plan?');
    expect((await sandbox.issued()) - before).toBe(1);
  });

  it('is misread by the client when the sandbox drifts a field, so these specs would catch drift', async () => {
    const drifted = await keyed().chat.completions.create({ model: 'sandbox-gpt', messages }, { headers: { 'x-sandbox-drift': 'choices' } });
    expect(drifted.choices).toBeUndefined();
    expect(() => drifted.choices[0]!.message).toThrow(TypeError);
  });
});
