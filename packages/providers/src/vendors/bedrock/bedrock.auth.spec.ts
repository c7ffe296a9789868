import { GatewayError } from '@gateway/contracts';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { channel } from '../../../test/fixtures/chat-fixtures';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { bedrockAuth, CREDENTIALS_FILE_CHECK_MS, fileCredentials } from './bedrock.auth';

const request: UpstreamRequest = {
  method: 'POST',
  url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-embed-text-v2%3A0/invoke',
  headers: { 'content-type': 'application/json' },
  body: '{"inputText":"hi"}',
  stream: false,
};

function bedrockChannel(settings: Record<string, unknown>, apiKey: string | null = null): ChannelTarget {
  return { ...channel('bedrock', 'https://bedrock-runtime.us-east-1.amazonaws.com'), providerId: 'bedrock-us', apiKey, settings };
}

const ini = (keyId: string, secret: string) =>
  `[default]\naws_access_key_id = ${keyId}\naws_secret_access_key = ${secret}\n\n[other]\naws_access_key_id = AKIAOTHERPROFILE0001\naws_secret_access_key = other\n`;

describe('Bedrock credentials', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bedrock-auth-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a shared credentials file, and reads it again once it changed and the check interval passed', async () => {
    const file = join(dir, 'credentials');
    writeFileSync(file, ini('AKIAFIRSTKEY00000001', 'first-secret'));
    let now = 1_000;
    const credentials = fileCredentials(file, undefined, () => now);
    await expect(credentials()).resolves.toMatchObject({ accessKeyId: 'AKIAFIRSTKEY00000001', secretAccessKey: 'first-secret' });

    writeFileSync(file, ini('AKIASECONDKEY0000002', 'second-secret'));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    now += CREDENTIALS_FILE_CHECK_MS - 1;
    await expect(credentials()).resolves.toMatchObject({ accessKeyId: 'AKIAFIRSTKEY00000001' });
    now += 1;
    await expect(credentials()).resolves.toMatchObject({ accessKeyId: 'AKIASECONDKEY0000002', secretAccessKey: 'second-secret' });
  });

  it("reads the settings' profile from the file", async () => {
    const file = join(dir, 'credentials');
    writeFileSync(file, ini('AKIAFIRSTKEY00000001', 'first-secret'));
    await expect(fileCredentials(file, 'other')()).resolves.toMatchObject({ accessKeyId: 'AKIAOTHERPROFILE0001' });
  });

  it('signs with the access key id and the provider key as its secret', async () => {
    const signed = await bedrockAuth(bedrockChannel({ region: 'us-east-1', accessKeyId: 'AKIAFIRSTKEY00000001' }, 'the-secret')).authorize(
      request,
      bedrockChannel({ region: 'us-east-1', accessKeyId: 'AKIAFIRSTKEY00000001' }, 'the-secret'),
    );
    expect(signed.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFIRSTKEY00000001\/\d{8}\/us-east-1\/bedrock\/aws4_request, /);
    expect(signed.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(JSON.stringify(signed)).not.toContain('the-secret');
  });

  it('fails with a 502 naming the provider, and nothing secret, when the credentials cannot be had', async () => {
    const missingFile = bedrockChannel({ region: 'us-east-1', credentialsFile: join(dir, 'absent') });
    const noSecret = bedrockChannel({ region: 'us-east-1', accessKeyId: 'AKIAFIRSTKEY00000001' }, null);
    for (const target of [missingFile, noSecret]) {
      const failure = await Promise.resolve(bedrockAuth(target).authorize(request, target)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GatewayError);
      expect(failure).toMatchObject({ code: 'upstream_error', upstreamStatus: 502 });
      expect((failure as Error).message).toContain('"bedrock-us"');
    }
  });
});
