import { KeyRoutes, keyAllowsRoute, routeEntryMatches } from './key-routes';

describe("a key's route list", () => {
  it('allows every route when empty or absent', () => {
    expect(keyAllowsRoute(undefined, 'oaic.chat')).toBe(true);
    expect(keyAllowsRoute([], 'msgc.messages')).toBe(true);
  });

  it('names routes by id, by a leading part (a family) and by * patterns', () => {
    const routes = ['oaic.embeddings', 'msgc', 'oaic.files', 'genc.*'];
    for (const allowed of ['oaic.embeddings', 'msgc.messages', 'msgc.count_tokens', 'oaic.files.list', 'genc.stream']) {
      expect(keyAllowsRoute(routes, allowed)).toBe(true);
    }
    for (const refused of ['oaic.chat', 'oaic.embeddings2', 'msgcx.messages', 'oaic.files_extra', 'dsc.image']) {
      expect(keyAllowsRoute(routes, refused)).toBe(false);
    }
  });

  it('reads dots and hyphens of a pattern literally', () => {
    expect(routeEntryMatches('oaic.*-x', 'oaic.a-x')).toBe(true);
    expect(routeEntryMatches('oaic.*', 'oaicXchat')).toBe(false);
    expect(routeEntryMatches('oaic', 'oaic')).toBe(true);
  });

  it('refuses entries that are no route id, naming the entry', () => {
    const result = KeyRoutes.safeParse(['oaic.chat', 'OAIC chat']);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([1]);
  });
});
