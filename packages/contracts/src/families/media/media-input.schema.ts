import { z } from 'zod';
import { urlProblem } from '../../url-policy/url-policy';

const RAW_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A media URL a client hands over: public HTTPS only (the URL policy). */
export const MediaUrl = z
  .string()
  .min(1)
  .superRefine((url, ctx) => {
    const problem = urlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** An image input: a public HTTPS URL, an image data URL, or bare Base64 (as the native vendor takes it). */
export const MediaImageInput = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    if (value.length >= 64 && RAW_BASE64.test(value)) return;
    const problem = urlProblem(value, { data: 'image' });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Seconds as an integer or a numeric string (`5`, `"10"`). */
export const MediaSeconds = z.union([z.number().int().min(1).max(60), z.string().regex(/^\d{1,2}$/, 'expected a whole number of seconds')]).transform(Number);

export const AspectRatio = z.string().regex(/^\d{1,4}:\d{1,4}$/, 'expected <w>:<h>');
