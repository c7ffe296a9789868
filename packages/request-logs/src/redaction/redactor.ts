import type { CountryCode } from 'libphonenumber-js';
import { builtInDetectors, type Detector, type Span } from './detectors';
import { ruleDetector, type RedactionRule } from './tenant-rules';

/** How many values each rule replaced, by rule name. */
export type RedactionCounts = Record<string, number>;

export interface Redacted<T> {
  value: T;
  counts: RedactionCounts;
}

export interface RedactorOptions {
  /** The tenant's own rules, applied after the built-in detectors. */
  rules?: readonly RedactionRule[];
  /** The region whose national phone numbers are recognised without a country code (default US). */
  phoneRegion?: CountryCode;
}

interface Claim {
  span: Span;
  name: string;
}

/**
 * Replaces every sensitive value in a text, or in every string of a JSON value (keys are kept), by
 * `[REDACTED:<name>]`, counting what each rule replaced. Built-in detectors come first; where matches
 * overlap, the first claim stands. What is sent upstream is never touched: this runs on the copy
 * that is stored.
 */
export class Redactor {
  private readonly detectors: readonly Detector[];

  constructor(options: RedactorOptions = {}) {
    this.detectors = [...builtInDetectors(options.phoneRegion), ...(options.rules ?? []).map(ruleDetector)];
  }

  text(text: string): Redacted<string> {
    const counts: RedactionCounts = {};
    return { value: this.redactText(text, counts), counts };
  }

  json<T>(value: T): Redacted<T> {
    const counts: RedactionCounts = {};
    return { value: this.walk(value, counts) as T, counts };
  }

  private walk(value: unknown, counts: RedactionCounts): unknown {
    if (typeof value === 'string') return this.redactText(value, counts);
    if (Array.isArray(value)) return value.map((item) => this.walk(item, counts));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = this.walk(item, counts);
      return out;
    }
    return value;
  }

  private redactText(text: string, counts: RedactionCounts): string {
    if (text.length === 0) return text;
    const claims: Claim[] = [];
    for (const detector of this.detectors) {
      for (const span of detector.find(text)) {
        if (claims.some((claim) => span[0] < claim.span[1] && claim.span[0] < span[1])) continue;
        claims.push({ span, name: detector.name });
      }
    }
    if (claims.length === 0) return text;
    claims.sort((a, b) => a.span[0] - b.span[0]);
    let out = '';
    let at = 0;
    for (const { span, name } of claims) {
      out += `${text.slice(at, span[0])}[REDACTED:${name}]`;
      at = span[1];
      counts[name] = (counts[name] ?? 0) + 1;
    }
    return out + text.slice(at);
  }
}
