import { BUILT_ROUTES } from '@gateway/contracts';
import { bodyLimitOf, busBodyLimit, ENVELOPE_ROOM, tooLargeMessage } from './body-limits';

const env = { EDGE_RELAYED_BODY_MAX_BYTES: 32 * 1024 * 1024, EDGE_BUS_BODY_MAX_BYTES: undefined, MUSIC_CALLBACK_MAX_BYTES: 64 * 1024 };
const MB = 1024 * 1024;

describe('body limits', () => {
  it('gives the routes whose body goes by claim check the relayed limit, and every other body route one bus message', () => {
    const posts = BUILT_ROUTES.filter((route) => route.method === 'POST');
    const relayed = new Set(posts.filter((route) => bodyLimitOf(route, env, MB).variable === 'EDGE_RELAYED_BODY_MAX_BYTES').map((route) => route.id));
    expect([...relayed].sort()).toEqual(
      [
        'genc.generate',
        'genc.stream',
        'msgc.count_tokens',
        'msgc.messages',
        'oaic.assistants.create',
        'oaic.assistants.update',
        'oaic.audio.speech',
        'oaic.chat',
        'oaic.completions',
        'oaic.embeddings',
        'oaic.images.generations',
        'oaic.moderations',
        'oaic.responses.create',
        'oaic.threads.create',
        'oaic.threads.messages.create',
        'oaic.threads.runs.create',
        'oaic.threads.update',
      ].sort(),
    );
    for (const id of ['oaic.batches.create', 'oaic.videos.create', 'dsc.image', 'nativemedia.images.generations.create', 'music.generate', 'oaic.files.create'])
      expect(bodyLimitOf({ id }, env, MB)).toEqual({ bytes: MB - ENVELOPE_ROOM, variable: 'EDGE_BUS_BODY_MAX_BYTES' });
  });

  it('never lets a configured bus limit exceed what one message of the server holds', () => {
    expect(busBodyLimit({ ...env, EDGE_BUS_BODY_MAX_BYTES: 4 * MB }, MB)).toBe(MB - ENVELOPE_ROOM);
    expect(busBodyLimit({ ...env, EDGE_BUS_BODY_MAX_BYTES: 100_000 }, MB)).toBe(100_000);
    expect(busBodyLimit(env, 8 * MB)).toBe(8 * MB - ENVELOPE_ROOM);
  });

  it('names the limit and its variable in the 413', () => {
    expect(tooLargeMessage({ bytes: 65536, variable: 'MUSIC_CALLBACK_MAX_BYTES' })).toBe(
      'The request body is larger than the 65536 bytes this route accepts (MUSIC_CALLBACK_MAX_BYTES).',
    );
  });
});
