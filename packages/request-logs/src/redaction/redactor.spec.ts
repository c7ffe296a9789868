import fc from 'fast-check';
import { passesLuhn } from './detectors';
import { Redactor } from './redactor';
import { RedactionRule } from './tenant-rules';

const redactor = new Redactor();

/** A card number of `length` digits whose last digit makes the Luhn sum right. */
function withLuhnDigit(body: string): string {
  for (let check = 0; check < 10; check += 1) if (passesLuhn(body + check)) return body + check;
  throw new Error('unreachable');
}

describe('Redactor, built-in detectors', () => {
  it.each([
    ['mail me at jane.doe+work@example.co.uk today', 'mail me at [REDACTED:email] today', { email: 1 }],
    ['card 4111 1111 1111 1111, exp 12/29', 'card [REDACTED:card], exp 12/29', { card: 1 }],
    ['card 4111-1111-1111-1111', 'card [REDACTED:card]', { card: 1 }],
    ['pay to DE89 3704 0044 0532 0130 00 please', 'pay to [REDACTED:iban] please', { iban: 1 }],
    ['call (415) 555-2671 or +44 20 7946 0958', 'call [REDACTED:phone] or [REDACTED:phone]', { phone: 2 }],
    ['key sk-proj-abcdefghijklmnopqrstuvwx and AKIAIOSFODNN7EXAMPLE', 'key [REDACTED:api_key] and [REDACTED:api_key]', { api_key: 2 }],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc', 'Authorization: [REDACTED:bearer]', { bearer: 1 }],
  ])('%s', (text, expected, counts) => {
    expect(redactor.text(text)).toEqual({ value: expected, counts });
  });

  it('leaves a number that fails the Luhn check, and ordinary figures, alone', () => {
    const text = 'order 4111 1111 1111 1112 shipped; 1,250 units at 3.5 each in 2026';
    expect(redactor.text(text)).toEqual({ value: text, counts: {} });
  });

  it('keeps keys and non-string values of JSON, redacting every string inside', () => {
    const body = { model: 'gpt', messages: [{ role: 'user', content: 'I am bob@example.com' }], n: 2, stream: true, meta: null };
    expect(redactor.json(body)).toEqual({
      value: { model: 'gpt', messages: [{ role: 'user', content: 'I am [REDACTED:email]' }], n: 2, stream: true, meta: null },
      counts: { email: 1 },
    });
  });

  it('removes every valid card number from any text around it', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{12,18}$/),
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', '\n', 'é') }),
        fc.string({ unit: fc.constantFrom('x', 'y', ' ', ',', '\t') }),
        (body, before, after) => {
          const card = withLuhnDigit(body);
          const { value, counts } = redactor.text(`${before} ${card} ${after}`);
          expect(value).not.toContain(card);
          expect(counts.card).toBe(1);
        },
      ),
    );
  });

  it('removes every plain email address from any text around it', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    fc.assert(
      fc.property(
        word,
        word,
        fc.constantFrom('com', 'org', 'io', 'co.uk'),
        fc.string({ unit: fc.constantFrom('q', ' ', '!', '\n') }),
        (user, host, tld, around) => {
          const email = `${user}@${host}.${tld}`;
          const { value, counts } = redactor.text(`${around} ${email} ${around}`);
          expect(value).not.toContain(email);
          expect(counts.email).toBe(1);
        },
      ),
    );
  });

  it('changes nothing in text with no digits, no "@" and no key shapes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'z', ' ', '.', ',', '\n', 'ü', '日') }), (text) => {
        expect(redactor.text(text)).toEqual({ value: text, counts: {} });
      }),
    );
  });
});

describe('tenant rules', () => {
  it('apply after the built-ins, each under its own name', () => {
    const own = new Redactor({ rules: [RedactionRule.parse({ name: 'ticket', pattern: 'TCK-\\d{6}' })] });
    expect(own.text('ticket TCK-123456 for ann@example.org')).toEqual({
      value: 'ticket [REDACTED:ticket] for [REDACTED:email]',
      counts: { ticket: 1, email: 1 },
    });
  });

  it.each([
    [{ name: 'slow', pattern: '(a+)+$' }, 'pattern', 'nested repetition'],
    [{ name: 'broken', pattern: '([a-z' }, 'pattern', 'not a regular expression'],
    [{ name: 'empty', pattern: 'x*' }, 'pattern', 'matches the empty text'],
    [{ name: 'Bad Name', pattern: 'x' }, 'name', 'lowercase letters'],
  ])('refuse %j, naming the field', (rule, field, message) => {
    const parsed = RedactionRule.safeParse(rule);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: [field], message: expect.stringContaining(message) });
  });
});
