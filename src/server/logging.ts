/**
 * Structured logs: one JSON object per line on stdout (pino), with the request id fastify assigns. Programs'
 * source and output never go into logs (they can be large and are the caller's data); ids, statuses, counts
 * and durations do.
 */
import { pino, type Logger } from 'pino';

export type ServeLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The service logger. `destination` defaults to stdout (fd 1). */
export function createLogger(level: ServeLogLevel, destination?: NodeJS.WritableStream): Logger {
  return pino({
    level,
    base: { service: 'crucible-serve' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Tokens must not reach the log even at trace level.
    redact: { paths: ['req.headers.authorization'], censor: '[redacted]' },
  }, destination ?? pino.destination({ fd: 1, sync: false }));
}
