import { GatewayError, type Capability, type RoomModelList, type VisibleModel } from '@gateway/contracts';

/** Chat-room scopes and the catalog capabilities each covers; `all` covers every capability. */
const SCOPES: Record<string, readonly Capability[] | 'all'> = {
  all: 'all',
  chat: ['chat'],
  embedding: ['embedding'],
  moderation: ['moderation'],
  image: ['image'],
  audio: ['tts', 'stt'],
  video: ['video'],
  music: ['music'],
};

export const ROOM_SCOPES = Object.keys(SCOPES);

/** The models of `scope`, the first `limit` of them, with the count before the limit. */
export function selectRoomModels(models: readonly VisibleModel[], scope: string, limit: number | undefined): RoomModelList {
  const capabilities = Object.hasOwn(SCOPES, scope) ? SCOPES[scope]! : undefined;
  if (capabilities === undefined) throw GatewayError.invalid(`Unknown scope "${scope}": use one of ${ROOM_SCOPES.join(', ')}.`, 'scope');
  const matching = capabilities === 'all' ? models : models.filter((m) => capabilities.includes(m.capability));
  const limited = limit === undefined ? matching : matching.slice(0, limit);
  return {
    models: limited.map((m) => ({
      id: m.id,
      display_name: m.displayName,
      capability: m.capability,
      created_at: new Date(Date.parse(m.createdAt)).toISOString(),
    })),
    total: matching.length,
  };
}
