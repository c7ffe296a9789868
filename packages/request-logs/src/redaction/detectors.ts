import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { findNumbers, type CountryCode } from 'libphonenumber-js';

/** Where a detector found something in a text: `[start, end)` in UTF-16 units. */
export type Span = readonly [start: number, end: number];

/** Finds one kind of sensitive value in a text; its name goes into `[REDACTED:<name>]`. */
export interface Detector {
  readonly name: string;
  find(text: string): Span[];
}

function spansOf(pattern: RegExp, text: string, accept: (match: string) => boolean = () => true): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(pattern)) {
    if (accept(match[0])) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** The Luhn checksum every payment card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** 13 to 19 digits, single spaces or dashes between groups allowed. */
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
/** Secret shapes of the common vendors' keys, and of this gateway's own (`sk-…`). */
const API_KEY =
  /\b(?:sk-(?:ant-|proj-|plan-|payg-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|gh[pousr]_[A-Za-z0-9]{36}|xox[abprs]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20})\b/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/gi;

export const emailDetector: Detector = { name: 'email', find: (text) => spansOf(EMAIL, text) };

export const cardDetector: Detector = {
  name: 'card',
  find: (text) => spansOf(CARD, text, (match) => passesLuhn(match.replace(/[ -]/g, ''))),
};

export const ibanDetector: Detector = {
  name: 'iban',
  find: (text) => spansOf(IBAN, text, (match) => isValidIBAN(electronicFormatIBAN(match) ?? '')),
};

export const apiKeyDetector: Detector = { name: 'api_key', find: (text) => spansOf(API_KEY, text) };

export const bearerDetector: Detector = { name: 'bearer', find: (text) => spansOf(BEARER, text) };

/** Phone numbers as libphonenumber-js finds them: international ones anywhere, national ones of `region`. */
export function phoneDetector(region: CountryCode = 'US'): Detector {
  return {
    name: 'phone',
    find: (text) => findNumbers(text, { defaultCountry: region, v2: true }).map((found): Span => [found.startsAt, found.endsAt]),
  };
}

/**
 * The built-in detectors, most specific first: where two find overlapping values, the earlier one's
 * match stands (a card number is never also reported as a phone number).
 */
export function builtInDetectors(phoneRegion?: CountryCode): Detector[] {
  return [apiKeyDetector, bearerDetector, cardDetector, ibanDetector, emailDetector, phoneDetector(phoneRegion)];
}
