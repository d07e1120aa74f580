/**
 * The mock OpenAI server (`mock-openai.ts`) as a process of its own, for `bench:generate` (so that the mock and
 * the client under measurement do not share an event loop): `node dist/test/support/mock-openai-main.js
 * [--slots N] [--latency-ms MS]` prints `{"url": ...}` on one line, then serves until SIGTERM or SIGINT. On
 * SIGUSR2 it prints `{"requests": R, "choices": C}` (what it answered so far).
 */
import { startMockOpenAI } from './mock-openai.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const slots = arg('--slots') === undefined ? undefined : Number(arg('--slots'));
const latencyMs = arg('--latency-ms') === undefined ? undefined : Number(arg('--latency-ms'));
const mock = await startMockOpenAI({ ...(slots === undefined ? {} : { slots }), ...(latencyMs === undefined ? {} : { latencyMs }) });
process.stdout.write(JSON.stringify({ url: mock.url }) + '\n');
process.on('SIGUSR2', () => process.stdout.write(JSON.stringify({ requests: mock.requests.length, choices: mock.answeredChoices() }) + '\n'));
const stop = (): void => void mock.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
