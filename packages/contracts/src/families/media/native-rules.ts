// The nativemedia rules of spec 4.12, checked before anything is reserved or sent: each refusal names its rule.
import { GatewayError } from '../../errors/gateway-error';
import type { NativeImageRequest, NativeKind, NativeVideoRequest } from './native-request.schema';

const TIER_SUFFIX = /-(std|pro)$/;
const MARKER = /<<<image_(\d+)>>>/g;

/** Omni models are named as such (`…-omni`, `…omni…`): they serve only the omni routes. */
export function isOmniModel(name: string): boolean {
  return /(^|[-_.])omni([-_.]|$)/i.test(name);
}

/** A catalog id for a native model name and tier: `base` + `-std`/`-pro` on the std/pro routes, the name itself otherwise. */
export function nativeCatalogId(modelName: string, mode: 'std' | 'pro' | undefined, kind: NativeKind): string {
  return kind === 'text2video' || kind === 'image2video' ? `${modelName}-${mode ?? 'std'}` : modelName;
}

function rule(n: number, message: string, param: string): GatewayError {
  return GatewayError.invalid(`Rule ${n}: ${message}`, param);
}

function videoViolation(kind: NativeKind, body: NativeVideoRequest): GatewayError | null {
  const fields = body as Record<string, unknown>;
  const match = TIER_SUFFIX.exec(body.model_name);
  if (match) {
    const base = body.model_name.slice(0, -match[0].length);
    return rule(
      1,
      `model_name '${body.model_name}' is a catalog id with a -${match[1]} suffix; send the base name '${base}' in model_name and mode '${match[1]}'.`,
      'model_name',
    );
  }
  if (kind !== 'omni-video' && isOmniModel(body.model_name)) {
    return rule(2, `model_name '${body.model_name}' is an omni model, served only by the omni-video route, not ${kind}.`, 'model_name');
  }
  if (kind === 'image2video' && fields.image_url !== undefined) return rule(3, 'on image2video the source image goes in image, not image_url.', 'image_url');
  if (kind === 'image2video' && body.image_tail !== undefined && body.image === undefined)
    return rule(5, 'an end frame (image_tail) needs a first frame (image).', 'image_tail');
  if (kind === 'image2video' && body.image === undefined) return GatewayError.invalid('image2video needs a source image in image.', 'image');
  if (kind === 'omni-video') {
    for (const wrong of ['image_url', 'reference_image_urls'] as const) {
      if (fields[wrong] !== undefined) return rule(4, `on omni-video images go only in image_list[].image_url, not ${wrong}.`, wrong);
    }
    const list = body.image_list ?? [];
    for (const [, n] of body.prompt.matchAll(MARKER)) {
      const index = Number(n);
      if (index < 1 || index > list.length) {
        return rule(4, `the prompt refers to <<<image_${n}>>> but image_list has ${list.length} image(s); markers count from <<<image_1>>>.`, 'prompt');
      }
    }
    const types = list.map((item) => item.type);
    if (types.includes('end_frame') && !types.includes('first_frame')) return rule(5, 'an end_frame in image_list needs a first_frame too.', 'image_list');
  }
  return null;
}

/** The first rule a native create request breaks, as a 400 naming the rule; null when it keeps them all. */
export function nativeRuleViolation(kind: NativeKind, body: NativeVideoRequest | NativeImageRequest): GatewayError | null {
  if (kind === 'generations' || kind === 'omni-image') {
    const match = TIER_SUFFIX.exec(body.model_name);
    if (match)
      return rule(
        1,
        `model_name '${body.model_name}' carries a -${match[1]} suffix, which only video catalog ids have; send the model's own name.`,
        'model_name',
      );
    return null;
  }
  return videoViolation(kind, body as NativeVideoRequest);
}
