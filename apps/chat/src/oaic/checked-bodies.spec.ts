import { CountTokensRequest, GenerateContentRequest, MessagesRequest, ROUTES, SUBJECTS, type RouteDef } from '@gateway/contracts';
import type { z } from 'zod';
import { operationSchema } from './oaic-codec';

const OAIC = SUBJECTS.chat.oaic;

/** The schema the chat service parses each subject's body by, unless the edge marks it checked. */
const CHAT_SCHEMAS = new Map<string, z.ZodType>([
  [OAIC.chat, operationSchema('chat')],
  [OAIC.completions, operationSchema('completions')],
  [OAIC.responses, operationSchema('responses')],
  [OAIC.embeddings, operationSchema('embeddings')],
  [OAIC.moderations, operationSchema('moderations')],
  [OAIC.images, operationSchema('images')],
  [OAIC.speech, operationSchema('speech')],
  [SUBJECTS.chat.msgc.messages, MessagesRequest],
  [SUBJECTS.chat.msgc.countTokens, CountTokensRequest],
  [SUBJECTS.chat.genc.generate, GenerateContentRequest],
]);

/** Edge handlers that send their route's parsed body through the chat relay, by route id. */
const HANDLER_SUBJECTS: Record<string, string> = {
  'oaic.images.generations': OAIC.images,
  'oaic.audio.speech': OAIC.speech,
};

function chatSubjectOf(route: RouteDef): string | undefined {
  if (route.relay?.shape === 'chat') return route.relay.subject;
  return HANDLER_SUBJECTS[route.id];
}

describe('bodies the edge marks checked', () => {
  const checked = ROUTES.filter((route) => route.built && route.body !== undefined && chatSubjectOf(route) !== undefined);

  it('cover every family chat route', () => {
    const subjects = new Set(checked.map((route) => chatSubjectOf(route)));
    for (const subject of CHAT_SCHEMAS.keys()) expect(subjects).toContain(subject);
  });

  it('are parsed at the edge by the very schema the chat service would parse them by', () => {
    for (const route of checked) {
      const subject = chatSubjectOf(route)!;
      if (subject === OAIC.assistants) continue;
      expect({ route: route.id, sameSchema: CHAT_SCHEMAS.get(subject) === route.body }).toEqual({ route: route.id, sameSchema: true });
    }
  });
});
