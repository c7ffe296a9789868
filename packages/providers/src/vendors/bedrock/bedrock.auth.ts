// The auth step of a Bedrock provider: every call signed with SigV4 for the provider's region. Credentials
// are an access key id with the provider's key as its secret, a shared credentials file (looked at again
// every few seconds, so a rotated Kubernetes Secret is read without a restart), or the workload's own
// identity through the AWS SDK's chain. A failure to get them is a 502 naming the provider, never a secret.
import { fromIni } from '@aws-sdk/credential-providers';
import { type BedrockSettings, GatewayError } from '@gateway/contracts';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { stat } from 'node:fs/promises';
import type { UpstreamAuth } from '../../auth/upstream-auth.types';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { providerSettingsOf } from '../provider-settings';
import { bedrockCredentials, signBedrockRequest } from './bedrock-request.signer';

/** How often a credentials file is looked at for a change. */
export const CREDENTIALS_FILE_CHECK_MS = 10_000;

export function bedrockSettingsOf(channel: ChannelTarget): BedrockSettings {
  return providerSettingsOf(channel, 'bedrock');
}

function credentialsFailure(providerId: string, cause: unknown): GatewayError {
  if (cause instanceof GatewayError) return cause;
  const why = (cause as NodeJS.ErrnoException)?.code === 'ENOENT' ? 'its credentials file does not exist' : 'no credential source answered';
  return new GatewayError('upstream_error', `The provider "${providerId}" could not get AWS credentials: ${why}.`, null, 502);
}

/** A shared credentials file's profile, read again when the file's modification time changes. */
export function fileCredentials(file: string, profile?: string, now: () => number = Date.now): AwsCredentialIdentityProvider {
  let current: { version: number; provider: AwsCredentialIdentityProvider } | null = null;
  let checkedAt = -Infinity;
  return async () => {
    if (!current || now() - checkedAt >= CREDENTIALS_FILE_CHECK_MS) {
      const version = (await stat(file)).mtimeMs;
      checkedAt = now();
      if (!current || current.version !== version) {
        current = { version, provider: bedrockCredentials(fromIni({ filepath: file, profile, ignoreCache: true })) };
      }
    }
    return current.provider();
  };
}

function keyPair(channel: ChannelTarget, accessKeyId: string): AwsCredentialIdentity {
  if (!channel.apiKey) {
    throw new GatewayError('upstream_error', `The provider "${channel.providerId}" has no secret access key for settings.accessKeyId.`, null, 502);
  }
  return { accessKeyId, secretAccessKey: channel.apiKey };
}

export class BedrockAuth implements UpstreamAuth {
  private readonly shared: AwsCredentialIdentityProvider | null;

  constructor(
    private readonly providerId: string,
    private readonly settings: BedrockSettings,
  ) {
    if (settings.credentialsFile) this.shared = fileCredentials(settings.credentialsFile, settings.profile);
    else this.shared = settings.credentials === 'workload' ? bedrockCredentials() : null;
  }

  async authorize(request: UpstreamRequest, channel: ChannelTarget): Promise<UpstreamRequest> {
    let credentials: AwsCredentialIdentity;
    try {
      credentials = this.shared ? await this.shared() : keyPair(channel, this.settings.accessKeyId!);
    } catch (cause) {
      throw credentialsFailure(this.providerId, cause);
    }
    return signBedrockRequest(request, { region: this.settings.region, credentials });
  }
}

export function bedrockAuth(channel: ChannelTarget): UpstreamAuth {
  return new BedrockAuth(channel.providerId, bedrockSettingsOf(channel));
}
