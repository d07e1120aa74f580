/** `crucible formats`: list the problem formats (`--format` names) and the sample files Crucible reads. */
import type { Command } from 'commander';
import { PROBLEM_FORMATS } from '../formats/index.js';

/** Add `formats` to the program. */
export function register(program: Command): void {
  program.command('formats')
    .description('list the problem formats --format accepts (auto-detected by default) and the sample files read')
    .option('--json', 'print one JSON object')
    .action((opts: { json?: boolean }) => {
      const formats = PROBLEM_FORMATS.map((f) => ({ id: f.id, aliases: f.aliases, description: f.description }));
      if (opts.json) {
        process.stdout.write(JSON.stringify({ problemFormats: formats }) + '\n');
        return;
      }
      const lines = ['problem formats (--format; default auto, detected from the first record):'];
      for (const f of formats) {
        lines.push(`  ${f.id.padEnd(10)} ${f.description}${f.aliases.length > 0 ? ` (also: ${f.aliases.join(', ')})` : ''}`);
      }
      lines.push('', 'sample files (--samples): JSONL {task_id, completion | solution | response, language?}, or CodeT {prompt, samples}',
        'details: docs/FORMATS.md');
      process.stdout.write(lines.join('\n') + '\n');
    });
}
