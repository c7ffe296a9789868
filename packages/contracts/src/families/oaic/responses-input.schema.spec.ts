import { GatewayError, parseOrThrow } from '../../errors';
import { ResponseCreateRequest } from './responses.schema';

function refusal(body: unknown): GatewayError {
  try {
    parseOrThrow(ResponseCreateRequest, body);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected the body to be refused');
}

const withItem = (item: unknown) => ({ model: 'm', input: [{ role: 'user', content: 'hi' }, item] });

describe('ResponseCreateRequest input items', () => {
  it('types the items the gateway reads and passes every other type on unchanged', () => {
    const body = {
      model: 'm',
      input: [
        { role: 'developer', content: 'be brief' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'hi' },
            { type: 'input_file', file_id: 'file_1' },
          ],
        },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '{"temp":20}' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'x' },
        { type: 'item_reference', id: 'msg_1' },
      ],
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }, { type: 'web_search_preview' }],
    };
    expect(parseOrThrow(ResponseCreateRequest, body)).toEqual(body);
  });

  it.each([
    [{ type: 'function_call', call_id: 7, name: 'f', arguments: '{}' }, 'input[1].call_id'],
    [{ type: 'function_call', call_id: 'c', name: 'f' }, 'input[1].arguments'],
    [{ type: 'function_call_output', call_id: 'c', output: 5 }, 'input[1].output'],
    [{ role: 'critic', content: 'x' }, 'input[1].role'],
    [{ role: 'user', content: [{ text: 'a part without a type' }] }, 'input[1].content'],
    [{ content: 'neither a type nor a role' }, 'input[1].role'],
  ])('refuses a read item of the wrong shape at its own field: %j', (item, param) => {
    const error = refusal(withItem(item));
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe(param);
    expect(error.message).toContain(`'${param}'`);
  });

  it('refuses a function tool without a name and a tool choice of the wrong type, at their fields', () => {
    const tool = refusal({ model: 'm', input: 'hi', tools: [{ type: 'function', parameters: {} }] });
    expect(tool.param).toBe('tools[0].name');
    expect(tool.message).toBe("Missing required parameter: 'tools[0].name'.");
    expect(refusal({ model: 'm', input: 'hi', tool_choice: 7 }).param).toBe('tool_choice');
  });
});
