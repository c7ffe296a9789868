import { z } from 'zod';
import { ProviderProtocol } from '../admin/config.schema';
import { StoredProviderSettings } from '../admin/provider-settings.schema';
import { MicrosString } from '../money';
import { Capability } from './catalog.schema';

/** What the chat service asks to route a model: `accounts.catalog.channels`. */
export const CatalogChannelsRequest = z.object({ modelId: z.string().min(1) });
export type CatalogChannelsRequest = z.infer<typeof CatalogChannelsRequest>;

/** Prices in micro-units, as decimal integer strings (JSON has no BigInt). */
export const CatalogPrices = z.object({
  inputPerMTok: MicrosString,
  outputPerMTok: MicrosString,
  perImage: MicrosString,
  perSecond: MicrosString,
  perTask: MicrosString,
  /** Prompt tokens read from the upstream's prompt cache; absent: the input price. */
  cachedInputPerMTok: MicrosString.optional(),
  /** Prompt tokens written to the upstream's prompt cache; absent: the input price. */
  cacheWritePerMTok: MicrosString.optional(),
  /** Input and output tokens of an answer served from the response cache; absent: free. */
  cacheHitPerMTok: MicrosString.optional(),
});
export type CatalogPrices = z.infer<typeof CatalogPrices>;

export const CatalogModel = z.object({
  id: z.string(),
  capability: Capability,
  defaultMaxTokens: z.number().int().positive(),
  prices: CatalogPrices,
});
export type CatalogModel = z.infer<typeof CatalogModel>;

/** One upstream route to a model, with its provider's secret already resolved (apiKey, or the env var it names). */
export const CatalogChannel = z.object({
  id: z.string(),
  providerId: z.string(),
  protocol: ProviderProtocol,
  baseUrl: z.string(),
  apiKey: z.string().nullable(),
  /** The provider's non-secret settings for its protocol (parsed by the protocol's vendor). */
  settings: StoredProviderSettings.nullish(),
  upstreamModel: z.string(),
  priority: z.number().int(),
  weight: z.number().int().positive(),
  /** The upstream runs whole JSONL batches through its own batch API. */
  nativeBatch: z.boolean().default(false),
  /** The upstream serves the assistants, threads and runs API. */
  assistants: z.boolean().default(false),
  /** Media tasks pass the upstream a callback URL for their end; polls become a safety net. */
  callbacks: z.boolean().optional(),
});
export type CatalogChannel = z.infer<typeof CatalogChannel>;

/** Channels in the order routing tries them: lower priority number first, then id (weights apply within a priority). */
export const CatalogChannelsReply = z.object({ model: CatalogModel, channels: z.array(CatalogChannel) });
export type CatalogChannelsReply = z.infer<typeof CatalogChannelsReply>;
