import { dscCodec } from './dsc.codec';
import type { FamilyCodec } from './family-codec';
import type { MediaFamily } from './media-route';
import { nativeCodec } from './native.codec';
import { oaicVideoCodec } from './oaic-video.codec';

export const FAMILY_CODECS: Record<MediaFamily, FamilyCodec> = { oaic: oaicVideoCodec, dsc: dscCodec, nativemedia: nativeCodec };
