import { buildModels } from '../testing/fake-accounts';
import { selectRoomModels } from './room-scope';

const models = [...buildModels(3, 'chat', 'chat'), ...buildModels(2, 'tts', 'tts'), ...buildModels(1, 'stt', 'stt'), ...buildModels(2, 'image', 'img')];

describe('selectRoomModels', () => {
  it('all covers every capability; total is counted before the limit', () => {
    expect(selectRoomModels(models, 'all', undefined).total).toBe(8);
    const limited = selectRoomModels(models, 'all', 2);
    expect(limited.models).toHaveLength(2);
    expect(limited.total).toBe(8);
  });

  it('audio covers tts and stt', () => {
    const audio = selectRoomModels(models, 'audio', undefined);
    expect(audio.total).toBe(3);
    expect(new Set(audio.models.map((m) => m.capability))).toEqual(new Set(['tts', 'stt']));
  });

  it('maps one scope to one capability, with the record fields', () => {
    const chat = selectRoomModels(models, 'chat', 1);
    expect(chat).toEqual({ models: [{ id: 'chat-000', display_name: 'Model 0', capability: 'chat', created_at: '2025-01-01T00:00:00.000Z' }], total: 3 });
    expect(selectRoomModels(models, 'video', undefined)).toEqual({ models: [], total: 0 });
  });

  it('rejects an unknown scope naming it', () => {
    expect(() => selectRoomModels(models, 'toString', undefined)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'scope' }));
  });
});
