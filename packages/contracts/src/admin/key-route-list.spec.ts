import { KeyCreateRequest } from './admin.schema';

describe('the route list of a new key', () => {
  it('takes route ids, families and patterns of the route table', () => {
    const parsed = KeyCreateRequest.parse({ tenant: 'acme', routes: ['oaic.embeddings', 'msgc', 'genc.*', 'oaic.files'] });
    expect(parsed.routes).toEqual(['oaic.embeddings', 'msgc', 'genc.*', 'oaic.files']);
  });

  it('refuses an entry that names no route, and an empty list, naming the field', () => {
    const typo = KeyCreateRequest.safeParse({ tenant: 'acme', routes: ['oaic.embedings'] });
    expect(typo.error?.issues[0]).toMatchObject({ path: ['routes', 0], message: expect.stringContaining('names no route of the route table') });
    expect(KeyCreateRequest.safeParse({ tenant: 'acme', routes: [] }).error?.issues[0]?.path).toEqual(['routes']);
  });

  it('takes a deny-list beside the model list', () => {
    expect(KeyCreateRequest.parse({ tenant: 'acme', models: ['a-*'], denyModels: ['a-b'] })).toMatchObject({ models: ['a-*'], denyModels: ['a-b'] });
    expect(KeyCreateRequest.safeParse({ tenant: 'acme', denyModels: ['not a model'] }).error?.issues[0]?.path).toEqual(['denyModels', 0]);
  });
});
