// A key's model list: ids and `*` patterns (`sandbox-*`, `*-embedding`); an empty list is every model the
// key's tenant sees. One reading everywhere a model is routed.
import { z } from 'zod';

/** An entry of a key's model list: a model id, where `*` stands for any run of characters. */
export const ModelPattern = z.string().regex(/^[A-Za-z0-9*][A-Za-z0-9._:/@*-]{0,127}$/, 'a model id, where * matches any characters');

export const KeyModels = z.array(ModelPattern).max(100, 'at most 100 entries');

const compiled = new Map<string, RegExp>();

function patternOf(entry: string): RegExp {
  let pattern = compiled.get(entry);
  if (!pattern) {
    pattern = new RegExp(
      `^${entry
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
        .join('.*')}$`,
    );
    if (compiled.size >= 10_000) compiled.clear();
    compiled.set(entry, pattern);
  }
  return pattern;
}

/** The first entry of a model list (ids and `*` patterns) that names `modelId`, if any. */
export function matchingModelEntry(models: readonly string[] | undefined, modelId: string): string | undefined {
  for (const entry of models ?? []) if (entry === modelId || (entry.includes('*') && patternOf(entry).test(modelId))) return entry;
  return undefined;
}

/** Whether a key whose model list is `models` may use `modelId`. */
export function keyAllowsModel(models: readonly string[] | undefined, modelId: string): boolean {
  return !models || models.length === 0 || matchingModelEntry(models, modelId) !== undefined;
}
