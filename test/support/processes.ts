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

/**
 * Pids of live host processes that belong to a run of `sandbox`: owned by a slot uid and not one of the
 * long-lived slot boxes themselves (bubblewrap and box-server, which wait between runs by design).
 */
export function runProcessesOf(sandbox: { readonly slotUids: readonly number[]; readonly slotBoxProcessIds: readonly number[] }): number[] {
  const box = new Set(sandbox.slotBoxProcessIds);
  return processesOwnedBy(sandbox.slotUids).filter((pid) => !box.has(pid));
}
