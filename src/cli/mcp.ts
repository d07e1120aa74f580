/**
 * `crucible mcp`: serve Crucible's MCP tools (`src/server/mcp/server.ts`) over stdio, for agents that spawn their tools
 * (Claude Desktop, Cursor, MCP-capable agent frameworks). stdout carries only MCP messages (newline-delimited
 * JSON-RPC); diagnostics go to stderr. Runs until stdin ends or SIGTERM/SIGINT; then the tool calls under way
 * finish (within their own limits) and answer, and the sandbox is released.
 */
import { collectRepoSource } from './repo-options.js';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { mibToKiB, secondsToMs } from '../limits.js';
import { openService, ServeConfigSchema, type ServeConfigInput } from '../server/index.js';
import { createSessionManager } from '../server/sessions.js';
import {
  CACHE_DIR_HELP, parseMemoryLimitMiB, parsePositiveInt, parseTimeLimitSeconds, UNSAFE_NO_SANDBOX_HELP
} from './options.js';

interface McpFlags {
  problems?: string[];
  slots?: number;
  timeLimit?: number;
  memoryLimit?: number;
  cacheDir?: string;
  unsafeNoSandbox?: boolean;
  repoSource?: string[];
  registry?: string;
}

/** Add `mcp` to the program. */
export function register(program: Command): void {
  program.command('mcp')
    .description('serve the MCP tools (run_code, judge, session_*) over stdio for agents; HTTP clients use `crucible serve` at /mcp')
    .option('--problems <file...>', 'problem files the judge tool can name by task id (HumanEval, EvalPlus, Crucible format)')
    .option('--slots <n>', 'sandbox slots (default: number of cores)', parsePositiveInt)
    .option('--time-limit <seconds>', 'default CPU time limit per test or program in seconds (default: as crucible eval)', parseTimeLimitSeconds)
    .option('--memory-limit <MiB>', 'default memory limit in MiB (default 1024)', parseMemoryLimitMiB)
    .option('--cache-dir <dir>', CACHE_DIR_HELP)
    .option('--unsafe-no-sandbox', UNSAFE_NO_SANDBOX_HELP)
    .option('--repo-source <repo=path>', 'repository problems: where a repository\'s code is, owner/name=PATH; repeatable', collectRepoSource)
    .option('--registry <url>', 'repository problems: the package registry an install may reach')
    .action(async (flags: McpFlags) => {
      const input: ServeConfigInput = {
        problems: flags.problems ?? [],
        slots: flags.slots,
        timeLimitMs: flags.timeLimit === undefined ? undefined : secondsToMs(flags.timeLimit),
        memoryLimitKiB: flags.memoryLimit === undefined ? undefined : mibToKiB(flags.memoryLimit),
        cacheDir: flags.cacheDir,
        unsafeNoSandbox: flags.unsafeNoSandbox === true,
        repoSources: flags.repoSource ?? [],
        registry: flags.registry,
      };
      const parsed = ServeConfigSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InvalidArgumentError(`${issue.path.join('.')}: ${issue.message}`);
      }
      // Loaded only here: the MCP SDK costs every other command ~150 ms of start-up.
      const [{ StdioServerTransport }, { watchPending }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'), import('../server/mcp/pending.js'), import('../server/mcp/server.js')]);
      const service = await openService(parsed.data);
      const sessions = createSessionManager(service.context, service.registry);
      const server = createMcpServer(service.context, { route: 'mcp:stdio', sessions });
      try {
        const transport = new StdioServerTransport();
        const ended = new Promise<void>((resolve) => {
          process.stdin.once('end', resolve);
          process.once('SIGTERM', resolve);
          process.once('SIGINT', resolve);
        });
        await server.connect(transport);
        const pending = watchPending(transport);
        process.stderr.write(`crucible mcp: serving on stdio (${service.context.service.problems.size} problems loaded)\n`);
        await Promise.race([ended, pending.closed]);
        // Requests already read still answer (a client may write its requests and close stdin at once).
        await pending.idle();
      } finally {
        await server.close();
        await sessions.close();
        await service.close();
      }
    });
}
