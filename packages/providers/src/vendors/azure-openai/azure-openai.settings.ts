// A channel's Azure settings, parsed once per settings object the catalog hands over.
import type { AzureOpenaiSettings } from '@gateway/contracts';
import type { ChannelTarget } from '../../provider.types';
import { providerSettingsOf } from '../provider-settings';

export function azureSettingsOf(channel: ChannelTarget): AzureOpenaiSettings {
  return providerSettingsOf(channel, 'azure-openai');
}
