import { isOmniModel, nativeCatalogId, nativeRuleViolation } from './native-rules';
import type { NativeVideoRequest } from './native-request.schema';

const video = (fields: Partial<NativeVideoRequest> & Record<string, unknown>): NativeVideoRequest =>
  ({ model_name: 'kling-v2', prompt: 'p', ...fields }) as NativeVideoRequest;
const image = 'https://images.example.com/a.png';

describe('nativemedia rules', () => {
  it.each([
    [1, 'text2video', video({ model_name: 'kling-v2-pro' }), 'model_name'],
    [2, 'text2video', video({ model_name: 'kling-omni' }), 'model_name'],
    [3, 'image2video', video({ image_url: image }), 'image_url'],
    [4, 'omni-video', video({ model_name: 'kling-omni', reference_image_urls: [image] }), 'reference_image_urls'],
    [4, 'omni-video', video({ model_name: 'kling-omni', prompt: '<<<image_1>>>' }), 'prompt'],
    [5, 'omni-video', video({ model_name: 'kling-omni', image_list: [{ image_url: image, type: 'end_frame' }] }), 'image_list'],
    [5, 'image2video', video({ image_tail: image }), 'image_tail'],
  ] as const)('rule %i on %s is a 400 that names the rule and the field', (n, kind, body, param) => {
    const error = nativeRuleViolation(kind, body);
    expect(error).toMatchObject({ code: 'invalid_request', param });
    expect(error!.message).toMatch(new RegExp(`^Rule ${n}: `));
  });

  it('lets through requests that keep the rules', () => {
    expect(nativeRuleViolation('text2video', video({ mode: 'pro' }))).toBeNull();
    expect(nativeRuleViolation('image2video', video({ image, image_tail: image }))).toBeNull();
    const omni = video({
      model_name: 'kling-omni',
      prompt: '<<<image_1>>> to <<<image_2>>>',
      image_list: [
        { image_url: image, type: 'first_frame' },
        { image_url: image, type: 'end_frame' },
      ],
    });
    expect(nativeRuleViolation('omni-video', omni)).toBeNull();
  });

  it('names catalog ids: base + tier on the std/pro routes, the name itself elsewhere', () => {
    expect(nativeCatalogId('kling-v2', 'pro', 'text2video')).toBe('kling-v2-pro');
    expect(nativeCatalogId('kling-v2', undefined, 'image2video')).toBe('kling-v2-std');
    expect(nativeCatalogId('kling-omni', undefined, 'omni-video')).toBe('kling-omni');
    expect(isOmniModel('sandbox-kling-omni')).toBe(true);
    expect(isOmniModel('sandbox-kling-std')).toBe(false);
  });
});
