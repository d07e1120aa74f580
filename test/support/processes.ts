/** Host-side audits used by tests: which processes run under given uids. */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live host processes whose real uid is one of `uids`. */
export function processesOwnedBy(uids: readonly number[]): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (uids.includes(uid)) found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}
