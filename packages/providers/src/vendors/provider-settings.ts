// A channel's protocol settings, parsed once per settings object the catalog hands over; settings that do
// not parse make the channel unavailable, naming the provider and the field.
import { GatewayError, PROVIDER_SETTINGS, type SettingsProtocol } from '@gateway/contracts';
import type { z } from 'zod';
import type { ChannelTarget } from '../provider.types';

type SettingsOf<P extends SettingsProtocol> = z.output<(typeof PROVIDER_SETTINGS)[P]>;

const parsed = new WeakMap<object, unknown>();

export function providerSettingsOf<P extends SettingsProtocol>(channel: ChannelTarget, protocol: P): SettingsOf<P> {
  const raw = channel.settings ?? {};
  const known = parsed.get(raw);
  if (known) return known as SettingsOf<P>;
  const schema: z.ZodType = PROVIDER_SETTINGS[protocol];
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new GatewayError(
      'unavailable',
      `The provider "${channel.providerId}" has invalid ${protocol} settings (settings.${issue.path.join('.')}: ${issue.message}).`,
    );
  }
  parsed.set(raw, result.data);
  return result.data as SettingsOf<P>;
}
