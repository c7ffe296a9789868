// What a model held to a response format answers: a JSON object carrying the prompt for `json_object`,
// the smallest valid instance for a schema. Serialised as a model writes it, one line.
import { minimalInstance } from './json-instance';

export type AnswerFormat = { kind: 'json_object' } | { kind: 'json_schema'; schema: unknown };

export function structuredAnswer(format: AnswerFormat, said: string): string {
  return JSON.stringify(format.kind === 'json_object' ? { answer: said } : minimalInstance(format.schema, said));
}

/** Arguments for a call of a tool with these declared parameters, answering `said`. */
export function toolArgumentsFor(parameters: unknown, said: string): Record<string, unknown> {
  const instance = minimalInstance(parameters ?? { type: 'object', properties: {} }, said);
  return instance !== null && typeof instance === 'object' && !Array.isArray(instance) ? (instance as Record<string, unknown>) : { input: said };
}
