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
import { bedrockCredentials, bedrockSigner, type BedrockSigner } from './bedrock-request.signer';

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
  /** The signer of a shared credential source (a file, the workload's identity); null when the channel's key is the secret. */
  private readonly shared: BedrockSigner | null;
  private keyed: { secret: string; sign: BedrockSigner } | null = null;

  constructor(
    private readonly providerId: string,
    private readonly settings: BedrockSettings,
  ) {
    const region = settings.region;
    if (settings.credentialsFile)
      this.shared = bedrockSigner({ region, credentials: this.failingNamed(fileCredentials(settings.credentialsFile, settings.profile)) });
    else this.shared = settings.credentials === 'workload' ? bedrockSigner({ region, credentials: this.failingNamed(bedrockCredentials()) }) : null;
  }

  authorize(request: UpstreamRequest, channel: ChannelTarget): Promise<UpstreamRequest> {
    if (this.shared) return this.shared(request);
    try {
      return this.signerOf(channel)(request);
    } catch (cause) {
      return Promise.reject(credentialsFailure(this.providerId, cause));
    }
  }

  /** The signer for the channel's key as the secret of settings.accessKeyId, made again when the key changes. */
  private signerOf(channel: ChannelTarget): BedrockSigner {
    const { accessKeyId } = keyPair(channel, this.settings.accessKeyId!);
    if (this.keyed?.secret !== channel.apiKey) {
      const secretAccessKey = channel.apiKey!;
      this.keyed = { secret: secretAccessKey, sign: bedrockSigner({ region: this.settings.region, credentials: { accessKeyId, secretAccessKey } }) };
    }
    return this.keyed.sign;
  }

  /** A credential source whose failure is the provider's 502, naming it and nothing secret. */
  private failingNamed(provider: AwsCredentialIdentityProvider): AwsCredentialIdentityProvider {
    return (options) =>
      provider(options).catch((cause: unknown) => {
        throw credentialsFailure(this.providerId, cause);
      });
  }
}

export function bedrockAuth(channel: ChannelTarget): UpstreamAuth {
  return new BedrockAuth(channel.providerId, bedrockSettingsOf(channel));
}
