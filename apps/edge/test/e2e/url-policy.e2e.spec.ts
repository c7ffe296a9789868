/**
 * The URL policy through the running gateway: URLs that would send an upstream into the operator's
 * network (loopback, metadata, internal names, any notation of them) are refused with a 400 in the
 * family's dialect naming the field, in every family and on a request crossed to another protocol.
 */
import OpenAI from 'openai';
import { baseUrl, bearer, createTenantWithKey, e2eEnv, http, openaiClient, type TenantWithKey } from './support/gateway';

type BadRequest = InstanceType<typeof OpenAI.BadRequestError>;

describe('URL policy', () => {
  let tenant: TenantWithKey;
  let client: OpenAI;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'urls' });
    client = openaiClient(tenant.key);
  });

  async function refusedByOaic(call: Promise<unknown>, param: string, reason: RegExp): Promise<void> {
    const error = await call.then(
      () => new Error('expected a 400'),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as BadRequest;
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.param).toBe(param);
    expect(bad.message).toContain(param);
    expect(bad.message).toMatch(reason);
  }

  const chatWithImage = (model: string, url: string, stream = false) =>
    client.chat.completions.create({
      model,
      stream,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);

  describe('oaic chat image_url', () => {
    it.each([
      ['https://169.254.169.254/latest/meta-data', /cloud metadata address \(169\.254\.169\.254\)/],
      ['https://127.0.0.1', /loopback address \(127\.0\.0\.1\)/],
      ['https://[::1]', /loopback address \(::1\)/],
      ['https://0x7f000001', /loopback address \(127\.0\.0\.1\)/],
      ['https://2130706433', /loopback address \(127\.0\.0\.1\)/],
    ])('refuses %s', (url, reason) => refusedByOaic(chatWithImage('sandbox-gpt', url), 'messages[0].content[1].image_url.url', reason));

    it('still serves a public image URL', async () => {
      const completion = await chatWithImage('sandbox-gpt', 'https://example.com/cat.png');
      expect(completion.choices[0]!.message.content).toContain('What is in this picture?');
    });
  });

  describe('oaic responses input_image', () => {
    const responseWithImage = (url: string) =>
      client.responses.create({
        model: 'sandbox-gpt',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is in this picture?' },
              { type: 'input_image', image_url: url, detail: 'auto' },
            ],
          },
        ],
      });

    it.each([
      [`http://127.0.0.1:${new URL(e2eEnv().GW_E2E_SANDBOX_URL).port}/openai/v1/models`, /http:\/\//],
      ['file:///etc/passwd', /local file paths/],
      ['javascript:alert(1)', /javascript: URLs/],
    ])('refuses %s', (url, reason) => refusedByOaic(responseWithImage(url), 'input[0].content[1].image_url', reason));
  });

  describe('genc fileData.fileUri', () => {
    const generate = (fileUri: string) =>
      http('POST', `${baseUrl()}/genc/v1beta/models/sandbox-gemini:generateContent`, {
        headers: bearer(tenant.key),
        json: { contents: [{ role: 'user', parts: [{ text: 'What is in this file?' }, { fileData: { mimeType: 'image/png', fileUri } }] }] },
      });

    it.each([
      ['https://localhost./a.png', /names this machine/],
      ['https://localhost.localdomain/', /\.localdomain/],
      ['https://100.100.100.200/latest/meta-data', /cloud metadata address \(100\.100\.100\.200\)/],
      ['https://instance-data/', /single-label/],
    ])('refuses %s', async (fileUri, reason) => {
      const response = await generate(fileUri);
      expect(response.status).toBe(400);
      const error = (response.body as { error: { code: number; status: string; message: string } }).error;
      expect(error.code).toBe(400);
      expect(error.status).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain('contents[0].parts[1].fileData.fileUri');
      expect(error.message).toMatch(reason);
    });
  });

  describe('an oaic request crossed to a Gemini upstream', () => {
    it.each([false, true])('refuses an internal image URL at the client field (stream: %s)', (stream) =>
      refusedByOaic(
        chatWithImage('sandbox-gemini', 'https://100.100.100.200/latest/meta-data', stream),
        'messages[0].content[1].image_url.url',
        /cloud metadata address \(100\.100\.100\.200\)/,
      ),
    );

    it('still serves a public image URL', async () => {
      const completion = await chatWithImage('sandbox-gemini', 'https://example.com/cat.png');
      expect(completion.model).toBe('sandbox-gemini');
    });
  });
});
