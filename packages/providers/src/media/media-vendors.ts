import type { ProviderProtocol } from '@gateway/contracts';
import { dashscopeMedia } from '../vendors/dashscope/dashscope-media.transform';
import { klingMedia } from '../vendors/kling/kling-media.transform';
import { openaiVideos } from '../vendors/openai/openai-videos.transform';
import type { MediaVendor } from './media-job.types';

const VENDORS: Partial<Record<ProviderProtocol, MediaVendor>> = { openai: openaiVideos, dashscope: dashscopeMedia, kling: klingMedia };

/** The media transforms of a channel's protocol; null for protocols that serve no media tasks. */
export function mediaVendorOf(protocol: ProviderProtocol): MediaVendor | null {
  return VENDORS[protocol] ?? null;
}
