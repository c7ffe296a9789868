// genc request body (spec 2.5, 4.5): contents/parts, function declarations, generation config. Unnamed fields pass through.
import { z } from 'zod';
import { addUrlIssue } from '../../url-policy/url-policy.schema';

export const GencInlineData = z.object({ mimeType: z.string().min(1), data: z.string().min(1) }).loose();
export const GencFileData = z
  .object({
    mimeType: z.string().min(1),
    fileUri: z.string(),
  })
  .loose();
export const GencFunctionCall = z.object({ id: z.string().optional(), name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }).loose();
export const GencFunctionResponse = z.object({ id: z.string().optional(), name: z.string().min(1), response: z.record(z.string(), z.unknown()) }).loose();

const PART_KINDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;

/** One part of a turn: exactly one of text, inlineData, fileData, functionCall, functionResponse. */
export const GencPart = z
  .object({
    text: z.string().optional(),
    inlineData: GencInlineData.optional(),
    fileData: GencFileData.optional(),
    functionCall: GencFunctionCall.optional(),
    functionResponse: GencFunctionResponse.optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
  })
  .loose()
  .refine((part) => PART_KINDS.filter((kind) => part[kind] !== undefined).length === 1, {
    message: 'a part holds exactly one of text, inlineData, fileData, functionCall, functionResponse',
  });
export type GencPart = z.infer<typeof GencPart>;

export const GencContent = z.object({ role: z.enum(['user', 'model', 'function']).optional(), parts: z.array(GencPart).min(1) }).loose();
export type GencContent = z.infer<typeof GencContent>;

/** Parameters as Gemini's OpenAPI-subset schema (`parameters`) or as JSON Schema (`parametersJsonSchema`): one of the two. */
export const GencFunctionDeclaration = z
  .object({
    name: z.string().min(1).max(128),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
  })
  .loose()
  .refine((fn) => fn.parameters === undefined || fn.parametersJsonSchema === undefined, {
    message: 'a function declaration has parameters or parametersJsonSchema, not both',
    path: ['parametersJsonSchema'],
  });
export type GencFunctionDeclaration = z.infer<typeof GencFunctionDeclaration>;

export const GencTool = z.object({ functionDeclarations: z.array(GencFunctionDeclaration).optional() }).loose();
export type GencTool = z.infer<typeof GencTool>;

export const GencToolConfig = z
  .object({
    functionCallingConfig: z
      .object({ mode: z.enum(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']).optional(), allowedFunctionNames: z.array(z.string()).optional() })
      .loose()
      .optional(),
  })
  .loose();

export const GencModality = z.enum(['TEXT', 'IMAGE', 'AUDIO']);

/** `thinkingBudget`: 0 turns thinking off, -1 lets the model decide; `thinkingLevel` is the newer spelling of an effort. */
export const GencThinkingConfig = z
  .object({
    thinkingBudget: z.number().int().min(-1).optional(),
    thinkingLevel: z.string().optional(),
    includeThoughts: z.boolean().optional(),
  })
  .loose();

export const GenerationConfig = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    topK: z.number().int().min(0).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    stopSequences: z.array(z.string()).optional(),
    candidateCount: z.number().int().min(1).optional(),
    presencePenalty: z.number().optional(),
    frequencyPenalty: z.number().optional(),
    responseMimeType: z.string().optional(),
    responseSchema: z.record(z.string(), z.unknown()).optional(),
    responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
    thinkingConfig: GencThinkingConfig.optional(),
    responseModalities: z
      .array(GencModality)
      .refine((modalities) => !modalities.includes('IMAGE') || modalities.includes('TEXT'), 'image output needs both TEXT and IMAGE')
      .optional(),
  })
  .loose();
export type GenerationConfig = z.infer<typeof GenerationConfig>;

export const GencSafetySetting = z.object({ category: z.string().min(1), threshold: z.string().min(1) }).loose();

/** The body as the Gemini protocol defines it, without our contract's extra rules (the sandbox speaks this). */
export const GenerateContentBody = z
  .object({
    contents: z.array(GencContent).min(1),
    systemInstruction: z
      .object({ role: z.string().optional(), parts: z.array(GencPart) })
      .loose()
      .optional(),
    tools: z.array(GencTool).optional(),
    toolConfig: GencToolConfig.optional(),
    generationConfig: GenerationConfig.optional(),
    safetySettings: z.array(GencSafetySetting).optional(),
  })
  .loose();
export type GenerateContentBody = z.infer<typeof GenerateContentBody>;

/** Every fileUri the request hands the upstream, judged by the URL policy at the field that holds it. */
function checkFileUris(body: GenerateContentBody, ctx: z.RefinementCtx): void {
  body.contents.forEach((content, i) =>
    content.parts.forEach((part, j) => {
      if (part.fileData) addUrlIssue(ctx, part.fileData.fileUri, ['contents', i, 'parts', j, 'fileData', 'fileUri']);
    }),
  );
  body.systemInstruction?.parts.forEach((part, j) => {
    if (part.fileData) addUrlIssue(ctx, part.fileData.fileUri, ['systemInstruction', 'parts', j, 'fileData', 'fileUri']);
  });
}

/**
 * The genc request: the body plus our contract's rules — some turn carries text (spec 4.5), and file URIs
 * pass the URL policy. Upstream answers and the sandbox use the plain body, where a URI is only data.
 */
export const GenerateContentRequest = GenerateContentBody.refine(
  (body) => body.contents.some((content) => content.parts.some((part) => typeof part.text === 'string')),
  { message: 'contents must hold at least one text part', path: ['contents'] },
).superRefine(checkFileUris);
export type GenerateContentRequest = z.infer<typeof GenerateContentRequest>;
