import { z } from 'zod';

/** Shapes every operator and console input is read with: bounded, printable text and times Postgres can hold. */

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` has no control character and no lone UTF-16 surrogate. */
export function isPrintable(text: string): boolean {
  return !CONTROL.test(text) && !LONE_SURROGATE.test(text);
}

/** Text of at most `max` characters, with no control characters. */
export function printableText(max: number): z.ZodString {
  return z.string().max(max).refine(isPrintable, 'control characters are not allowed');
}

export const INPUT_YEARS = { min: 2000, max: 2100 } as const;

/** An ISO date and time with an offset, between the years 2000 and 2100. */
export const InputTime = z.iso.datetime({ offset: true, message: 'expected a date and time, e.g. 2027-01-31T00:00:00Z' }).refine((text) => {
  const year = new Date(text).getUTCFullYear();
  return year >= INPUT_YEARS.min && year <= INPUT_YEARS.max;
}, `expected a time between the years ${INPUT_YEARS.min} and ${INPUT_YEARS.max}`);

/** A tenant slug as an input names it. */
export const InputSlug = printableText(64).min(1);

/** An opaque keyset cursor as a list hands it out (base64url). */
export const InputCursor = z
  .string()
  .max(256)
  .regex(/^[A-Za-z0-9_-]*$/, 'expected a cursor this list gave out');
