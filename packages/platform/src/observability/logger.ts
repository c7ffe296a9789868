/**
 * The process's one logger: pino JSON lines (or pretty lines for a terminal), and the same logger behind
 * Nest's `Logger` through nestjs-pino, so framework lines and our own share one format. Lines leave in
 * batches, never one write per line: on a busy edge a syscall per access line cost more than building it.
 */
import { Logger as NestLogger } from '@nestjs/common';
import { Logger as PinoNestLogger, PinoLogger } from 'nestjs-pino';
import pino, { type Logger } from 'pino';
import type { BaseEnv } from '../config/env';

export type LogSettings = Pick<BaseEnv, 'LOG_LEVEL' | 'LOG_FORMAT'>;

/**
 * Fields that never reach a line, whatever a call site hands the logger: credentials, auth headers and
 * request bodies (prompts). The access line is built from ids and counts and names none of these.
 */
const REDACTED = [
  'apiKey',
  'key',
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-goog-api-key"]',
  'body',
  'messages',
  'prompt',
  'input',
  '*.apiKey',
];

/** Lines are written once this many bytes wait, and at least this often (ms) when traffic is light. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 200;

/**
 * Where JSON lines go: `fd` (stdout) written asynchronously in batches. pino flushes what waits synchronously
 * on process exit (`process.exit` included), so only a SIGKILL can lose the last LOG_FLUSH_MS of lines.
 */
export function batchedLogDestination(fd = 1): pino.DestinationStream {
  return pino.destination({ dest: fd, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });
}

export function createLogger(app: string, settings: LogSettings): Logger {
  const options: pino.LoggerOptions = {
    level: settings.LOG_LEVEL,
    base: { app, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  };
  if (settings.LOG_FORMAT === 'pretty') {
    return pino(options, pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }));
  }
  return pino(options, batchedLogDestination());
}

/** Nest's logger on top of `logger` (nestjs-pino). */
export function nestLoggerOf(logger: Logger): PinoNestLogger {
  return new PinoNestLogger(new PinoLogger({ pinoHttp: { logger } }), {});
}

/** Same, installed as the one every `new Logger(context)` of the process writes through. */
export function useLoggerForNest(logger: Logger): PinoNestLogger {
  const nest = nestLoggerOf(logger);
  NestLogger.overrideLogger(nest);
  return nest;
}

/** The pino logger every app writes through. */
export type AppLogger = Logger;
