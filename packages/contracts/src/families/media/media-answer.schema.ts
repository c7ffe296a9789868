// How each media family shows a task: oaic's video object, dsc's {request_id, output, usage} and the native
// vendor's {code, message, data} envelope. Result links are signed gateway URLs on the public origin.
import { z } from 'zod';

const Count = z.number().int().nonnegative();
const TaskError = z.object({ code: z.string(), message: z.string() });

export const VideoStatus = z.enum(['processing', 'completed', 'failed', 'cancelled']);
export type VideoStatus = z.infer<typeof VideoStatus>;

/** `POST /oaic/v1/videos` and `GET /oaic/v1/videos/{video_id}`. */
export const VideoObject = z
  .object({
    id: z.string(),
    object: z.literal('video'),
    model: z.string(),
    status: VideoStatus,
    progress: z.number().int().min(0).max(100),
    created_at: z.number().int().describe('Unix seconds'),
    completed_at: z.number().int().nullable(),
    seconds: z.string().nullable(),
    size: z.string().nullable(),
    download_url: z.string().nullable().describe('Relative to the origin, once completed'),
    error: TaskError.nullable(),
  })
  .describe('A video task');
export type VideoObject = z.infer<typeof VideoObject>;

export const DscTaskStatus = z.enum(['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED']);
export type DscTaskStatus = z.infer<typeof DscTaskStatus>;

export const DscTaskOutput = z.object({
  task_id: z.string(),
  task_status: DscTaskStatus,
  submit_time: z.string().optional().describe('YYYY-MM-DD HH:MM:SS.mmm, UTC'),
  scheduled_time: z.string().optional(),
  end_time: z.string().optional(),
  orig_prompt: z.string().optional(),
  actual_prompt: z.string().optional(),
  video_url: z.string().optional(),
  results: z.array(z.object({ url: z.string() })).optional(),
  /** The image route's answer when its images are ready at once. */
  choices: z
    .array(z.object({ finish_reason: z.string(), message: z.object({ role: z.literal('assistant'), content: z.array(z.object({ image: z.string() })) }) }))
    .optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type DscTaskOutput = z.infer<typeof DscTaskOutput>;

export const DscTaskAnswer = z
  .object({
    request_id: z.string(),
    output: DscTaskOutput,
    usage: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  })
  .describe('A dsc task, or the images of the image route');
export type DscTaskAnswer = z.infer<typeof DscTaskAnswer>;

export const NativeTaskStatus = z.enum(['submitted', 'processing', 'succeed', 'failed']);
export type NativeTaskStatus = z.infer<typeof NativeTaskStatus>;

export const NativeTaskResult = z.union([
  z.object({ videos: z.array(z.object({ id: z.string(), url: z.string(), duration: z.string() })) }),
  z.object({ images: z.array(z.object({ index: Count, url: z.string() })) }),
]);
export type NativeTaskResult = z.infer<typeof NativeTaskResult>;

export const NativeTaskData = z.object({
  task_id: z.string(),
  task_status: NativeTaskStatus,
  task_status_msg: z.string(),
  created_at: z.number().int().describe('Unix milliseconds'),
  updated_at: z.number().int(),
  task_result: NativeTaskResult.optional(),
  error: TaskError.optional(),
});
export type NativeTaskData = z.infer<typeof NativeTaskData>;

export const NativeTaskAnswer = z
  .object({ code: z.literal(0), message: z.literal('SUCCEED'), request_id: z.string(), data: NativeTaskData })
  .describe('A nativemedia task');
export type NativeTaskAnswer = z.infer<typeof NativeTaskAnswer>;
