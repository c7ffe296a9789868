import safeRegex from 'safe-regex2';
import { z } from 'zod';
import type { Detector, Span } from './detectors';

/** A tenant's own redaction rule: a name for its `[REDACTED:<name>]` and a regular expression. */
export const RedactionRule = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'lowercase letters, digits, "_" or "-", starting with a letter, at most 32')
      .describe('name'),
    pattern: z.string().min(1).max(512),
  })
  .strict()
  .superRefine((rule, ctx) => {
    let compiled: RegExp;
    try {
      compiled = new RegExp(rule.pattern, 'gu');
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a regular expression: ${(error as Error).message}` });
      return;
    }
    if (!safeRegex(compiled)) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'nested repetition (such as (a+)+) could take exponential time; rewrite it without' });
    }
    if (compiled.test('')) ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'matches the empty text' });
  });
export type RedactionRule = z.infer<typeof RedactionRule>;

/** A tenant rule as a detector; the pattern is matched globally, in Unicode mode. */
export function ruleDetector(rule: RedactionRule): Detector {
  const pattern = new RegExp(rule.pattern, 'gu');
  return {
    name: rule.name,
    find: (text) => {
      const spans: Span[] = [];
      for (const match of text.matchAll(pattern)) {
        if (match[0].length > 0) spans.push([match.index, match.index + match[0].length]);
      }
      return spans;
    },
  };
}
