// A channel's Azure settings, parsed once per settings object the catalog hands over.
import { AzureOpenaiSettings, GatewayError } from '@gateway/contracts';
import type { ChannelTarget } from '../../provider.types';

const parsed = new WeakMap<object, AzureOpenaiSettings>();

export function azureSettingsOf(channel: ChannelTarget): AzureOpenaiSettings {
  const raw = channel.settings ?? {};
  const known = parsed.get(raw);
  if (known) return known;
  const result = AzureOpenaiSettings.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new GatewayError(
      'unavailable',
      `The provider "${channel.providerId}" has invalid azure-openai settings (settings.${issue.path.join('.')}: ${issue.message}).`,
    );
  }
  parsed.set(raw, result.data);
  return result.data;
}
