import type { MediaTask } from '../tasks/media-task.repository';
import { aspectRatioOfSize, decodeOaicImages, imagesAnswer } from './oaic-image.codec';

const fieldOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { param?: string }).param;
  }
  return 'no error';
};

describe('oaic images for a native-media image model', () => {
  it('maps n, size and response_format to the native image job', () => {
    expect(decodeOaicImages({ model: 'k', prompt: 'p', n: 3, size: '1792x1024', response_format: 'b64_json', user: 'u1' })).toEqual({
      catalogId: 'k',
      modelParam: 'model',
      capability: 'image',
      format: 'b64_json',
      job: { output: 'image', nativeKind: 'generations', prompt: 'p', images: 3, aspectRatio: '16:9' },
    });
    expect(decodeOaicImages({ model: 'k', prompt: 'p' })).toMatchObject({ format: 'url', job: { images: 1 } });
    expect(decodeOaicImages({ model: 'k', prompt: 'p', size: 'auto' }).job.aspectRatio).toBeUndefined();
  });

  it('draws OpenAI sizes at the nearest native ratio', () => {
    expect(['1024x1024', '256x256', '1792x1024', '1024x1792', '1536x1024', '1024x1536'].map((s) => aspectRatioOfSize(s, 'k'))).toEqual([
      '1:1',
      '1:1',
      '16:9',
      '9:16',
      '3:2',
      '2:3',
    ]);
  });

  it('refuses what the native route cannot honour, naming the field', () => {
    expect(fieldOf(() => decodeOaicImages({ model: 'k', prompt: 'p', quality: 'hd' }))).toBe('quality');
    expect(fieldOf(() => decodeOaicImages({ model: 'k', prompt: 'p', n: 10 }))).toBe('n');
    expect(fieldOf(() => decodeOaicImages({ model: 'k', prompt: 'p', size: '1000x333' }))).toBe('size');
    expect(fieldOf(() => decodeOaicImages({ model: 'k', prompt: 'p', size: '0x0' }))).toBe('size');
    expect(fieldOf(() => decodeOaicImages({ model: 'k', prompt: 'x'.repeat(4001) }))).toBe('prompt');
  });

  it('answers links, or the stored objects for the edge to inline', () => {
    const task = {
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
      results: [{ key: 'media/t/img_1/0.png', contentType: 'image/png', size: 99, kind: 'image' }],
    } as MediaTask;
    expect(imagesAnswer(task, 'url', ['https://gw/files/signed/a'])).toEqual({ created: 1767323045, data: [{ url: 'https://gw/files/signed/a' }] });
    expect(imagesAnswer(task, 'b64_json', [])).toEqual({
      created: 1767323045,
      data: [{ stored: { objectKey: 'media/t/img_1/0.png', contentType: 'image/png', size: 99 } }],
    });
  });
});
