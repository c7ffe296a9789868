import { KeyContext, ROUTES, type RouteDef } from '@gateway/contracts';
import { assertKeyMayCall } from './key-route-rule';

function key(routes?: string[]): KeyContext {
  return {
    keyId: 'k',
    keyName: 'n',
    kind: 'payg',
    tenantId: 't',
    tenantSlug: 't',
    billing: 'payg',
    expiresAt: null,
    expiredBy: null,
    budgets: [],
    models: [],
    routes,
    featureControls: {},
  };
}

const route = (id: string): RouteDef => ROUTES.find((candidate) => candidate.id === id)!;

describe("a key's route list at the edge", () => {
  it('lets every route through without a list', () => {
    expect(() => assertKeyMayCall(key(), route('oaic.chat'))).not.toThrow();
    expect(() => assertKeyMayCall(key([]), route('msgc.messages'))).not.toThrow();
  });

  it('refuses a route outside the list with permission_denied, naming the route and the list', () => {
    const embeddingsOnly = key(['oaic.embeddings', 'genc']);
    expect(() => assertKeyMayCall(embeddingsOnly, route('oaic.embeddings'))).not.toThrow();
    expect(() => assertKeyMayCall(embeddingsOnly, route('genc.stream'))).not.toThrow();
    let refused: unknown;
    try {
      assertKeyMayCall(embeddingsOnly, route('oaic.chat'));
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'permission_denied',
      message: 'This API key may not call POST /oaic/v1/chat/completions (route oaic.chat): its route list is oaic.embeddings, genc.',
    });
  });
});
