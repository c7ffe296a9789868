/**
 * Azure OpenAI through the gateway to the sandbox's Azure protocol: the oaic routes that go out as their own
 * (responses beside the deployments, embeddings on one), and the content filter as each family's client
 * sees it: a filtered answer ends with the family's filter stop, a refused prompt is the family's 400.
 */
import { ask, familyClients, type ChatFamily, type FamilyClients } from './support/chat-matrix';
import { createTenantWithKey } from './support/gateway';

const MODEL = 'sandbox-azure-gpt';
const FILTER_STOP: Record<ChatFamily, string> = { oaic: 'content_filter', msgc: 'refusal', genc: 'SAFETY' };
const FAMILIES: ChatFamily[] = ['oaic', 'msgc', 'genc'];

describe('Azure OpenAI content filter through each family', () => {
  let clients: FamilyClients;

  beforeAll(async () => {
    clients = familyClients((await createTenantWithKey({ label: 'azure' })).key);
  });

  it('answers an oaic response whole and streamed, and embeddings, from Azure deployments', async () => {
    const whole = await clients.oaic.responses.create({ model: MODEL, input: 'What is the plan?' });
    expect(whole.output_text).toBe('You said: What is the plan?');
    expect(whole.model).toBe(MODEL);
    let text = '';
    for await (const event of await clients.oaic.responses.create({ model: MODEL, input: 'What is the plan?', stream: true })) {
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe(whole.output_text);
    const embedded = await clients.oaic.embeddings.create({ model: 'sandbox-azure-embedding', input: ['one', 'two'] });
    expect(embedded.data).toHaveLength(2);
    expect(embedded.model).toBe('sandbox-azure-embedding');
  });

  describe.each(FAMILIES)('%s client', (family) => {
    it.each([false, true])('ends a filtered answer with the family filter stop (stream: %s)', async (stream) => {
      const answer = await ask(clients, family, MODEL, { user: '[[azure:filter-completion]] tell me', stream });
      expect(answer.stop).toBe(FILTER_STOP[family]);
      expect(answer.text).toBe('');
    });

    it('answers a prompt the filter refuses with the family 400, naming the filtered category', async () => {
      const refused = await ask(clients, family, MODEL, { user: '[[azure:filter-prompt]] tell me', stream: false }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400 });
      expect(String((refused as Error).message)).toContain("The upstream's content filter refused the prompt (ResponsibleAIPolicyViolation: hate (high))");
    });
  });
});
