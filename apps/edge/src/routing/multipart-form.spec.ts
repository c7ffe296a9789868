import { GatewayError } from '@gateway/contracts';
import { FormCounter, parserLimits } from './multipart-form';

const limits = { fields: 3, parts: 5, fieldBytes: 100, partHeaders: 8 };
const field = (fieldname: string, extra: { valueTruncated?: boolean; fieldnameTruncated?: boolean } = {}) => ({ type: 'field' as const, fieldname, ...extra });
const file = (fieldname = 'file') => ({ type: 'file' as const, fieldname });

function refusal(take: () => void): GatewayError | undefined {
  try {
    take();
    return undefined;
  } catch (error) {
    return error as GatewayError;
  }
}

describe('FormCounter', () => {
  it('refuses the first field over MULTIPART_MAX_FIELDS, naming it and the limit', () => {
    const counter = new FormCounter(limits);
    for (const name of ['a', 'b', 'c']) counter.take(field(name));
    const error = refusal(() => counter.take(field('d')));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'd', message: 'The multipart form has more than 3 text fields (MULTIPART_MAX_FIELDS).' });
  });

  it('counts files toward MULTIPART_MAX_PARTS but not toward the fields', () => {
    const counter = new FormCounter(limits);
    counter.take(field('a'));
    for (let i = 0; i < 4; i++) counter.take(file());
    expect(refusal(() => counter.take(file('x')))?.message).toBe('The multipart form has more than 5 parts (MULTIPART_MAX_PARTS).');
  });

  it('refuses a field the parser cut at MULTIPART_FIELD_MAX_BYTES', () => {
    expect(refusal(() => new FormCounter(limits).take(field('prompt', { valueTruncated: true })))?.message).toBe(
      'The multipart field is longer than 100 bytes (MULTIPART_FIELD_MAX_BYTES).',
    );
  });

  it('sets the parser one above each count, so the first part over a limit still reaches the counter', () => {
    expect(parserLimits(limits, { fileSize: 10, files: 1 })).toEqual({ fields: 4, parts: 6, fieldSize: 100, headerPairs: 8, fileSize: 10, files: 1 });
  });
});
