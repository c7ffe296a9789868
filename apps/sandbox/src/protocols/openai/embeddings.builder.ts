// Pure builders for embeddings and moderations: unit vectors seeded by the input text, and a keyword-based
// moderation verdict.
import { countTokens, hash32, seededRandom } from '../../core/tokenizer';
import type { EmbeddingRequest, ModerationRequest } from './openai.schemas';

const DEFAULT_DIMENSIONS = 1536;

export function embeddingInputs(input: EmbeddingRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  if (input.every((item) => typeof item === 'string')) return input as string[];
  if (input.every((item) => typeof item === 'number')) return [(input as number[]).join(' ')];
  return (input as number[][]).map((tokens) => tokens.join(' '));
}

export function embeddingVector(text: string, dimensions: number): number[] {
  const random = seededRandom(hash32(text));
  const raw = Array.from({ length: dimensions }, () => random() * 2 - 1);
  const norm = Math.sqrt(raw.reduce((sum, value) => sum + value * value, 0)) || 1;
  // Rounded through float32 so the float and base64 encodings carry the same numbers.
  return raw.map((value) => Math.fround(value / norm));
}

function encodeBase64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

export function embeddingsBody(request: EmbeddingRequest, model: string): Record<string, unknown> {
  const inputs = embeddingInputs(request.input);
  const dimensions = request.dimensions ?? DEFAULT_DIMENSIONS;
  const data = inputs.map((text, index) => {
    const vector = embeddingVector(text, dimensions);
    return { object: 'embedding', index, embedding: request.encoding_format === 'base64' ? encodeBase64(vector) : vector };
  });
  const tokens = inputs.reduce((sum, text) => sum + countTokens(text), 0);
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

const CATEGORIES: Record<string, string[]> = {
  harassment: ['idiot', 'stupid'],
  'harassment/threatening': ['threaten'],
  hate: ['hate'],
  'hate/threatening': [],
  illicit: ['steal'],
  'illicit/violent': [],
  'self-harm': ['self-harm'],
  'self-harm/intent': [],
  'self-harm/instructions': [],
  sexual: [],
  'sexual/minors': [],
  violence: ['kill', 'attack'],
  'violence/graphic': ['gore'],
};

function moderationInputs(input: ModerationRequest['input']): string[] {
  if (typeof input === 'string') return [input];
  return input.map((item) => (typeof item === 'string' ? item : (item.text ?? '')));
}

export function moderationBody(request: ModerationRequest, id: string): Record<string, unknown> {
  const results = moderationInputs(request.input).map((text) => {
    const lower = text.toLowerCase();
    const categories: Record<string, boolean> = {};
    const scores: Record<string, number> = {};
    const applied: Record<string, string[]> = {};
    for (const [category, words] of Object.entries(CATEGORIES)) {
      const hit = words.some((word) => lower.includes(word));
      categories[category] = hit;
      scores[category] = hit ? 0.98 : Number(((hash32(`${category}:${text}`) % 1000) / 100000).toFixed(6));
      applied[category] = ['text'];
    }
    return { flagged: Object.values(categories).some(Boolean), categories, category_scores: scores, category_applied_input_types: applied };
  });
  return { id, model: request.model ?? 'omni-moderation-latest', results };
}
