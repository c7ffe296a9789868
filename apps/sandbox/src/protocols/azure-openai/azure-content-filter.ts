// Azure's content-filter annotations and the prompt markers that trip them: `[[azure:filter-prompt]]`
// refuses the prompt with the 400 content_filter error, `[[azure:filter-completion]]` cuts the answer
// with finish_reason "content_filter".

export const FILTER_PROMPT_MARKER = '[[azure:filter-prompt]]';
export const FILTER_COMPLETION_MARKER = '[[azure:filter-completion]]';

const SAFE = { filtered: false, severity: 'safe' };

function harmResults(filtered: string | null): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const category of ['hate', 'self_harm', 'sexual', 'violence']) result[category] = category === filtered ? { filtered: true, severity: 'high' } : SAFE;
  return result;
}

export function promptFilterResults(): unknown[] {
  return [{ prompt_index: 0, content_filter_results: { ...harmResults(null), jailbreak: { filtered: false, detected: false } } }];
}

export function completionFilterResults(filtered: boolean): Record<string, unknown> {
  return {
    ...harmResults(filtered ? 'violence' : null),
    protected_material_code: { filtered: false, detected: false },
    protected_material_text: { filtered: false, detected: false },
  };
}

/** What a refused prompt's error names as filtered. */
export function refusedPromptResult(): Record<string, unknown> {
  return harmResults('hate');
}

/** Annotates a whole chat completion as Azure does. */
export function annotateCompletion(body: Record<string, unknown>, filtered: boolean): Record<string, unknown> {
  const choices = (body.choices as Record<string, unknown>[]).map((choice) => {
    if (!filtered) return { ...choice, content_filter_results: completionFilterResults(false) };
    const message = { ...(choice.message as Record<string, unknown>), content: '' };
    return { ...choice, message, finish_reason: 'content_filter', content_filter_results: completionFilterResults(true) };
  });
  return { ...body, prompt_filter_results: promptFilterResults(), choices };
}

/** Annotates a chat stream's chunks as Azure does: a first chunk with the prompt's results, results on each choice. */
export function annotateChunks(chunks: Record<string, unknown>[], filtered: boolean): Record<string, unknown>[] {
  const head = { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: promptFilterResults() };
  const annotated = chunks.map((chunk) => {
    const choices = (chunk.choices as Record<string, unknown>[]).map((choice) => {
      if (!filtered) return { ...choice, content_filter_results: completionFilterResults(false) };
      const delta = choice.delta as Record<string, unknown>;
      const finish = choice.finish_reason === null ? null : 'content_filter';
      return {
        ...choice,
        delta: { ...delta, ...(typeof delta.content === 'string' ? { content: '' } : {}) },
        finish_reason: finish,
        content_filter_results: completionFilterResults(true),
      };
    });
    return { ...chunk, choices };
  });
  return [head, ...annotated];
}
