/**
 * The host side of prepared workspaces and outboxes (see `WorkspaceMount` and `SandboxRequest.outbox` in
 * `types.ts`): what a request may ask for, the directory crucible-box lays a workspace out on, and reading back
 * what a run left in its outbox. The mounts themselves are made by crucible-box (src/sandbox/native/layers.h) and
 * box-init (src/sandbox/native/workspace.h).
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import type { Slot } from './slots.js';
import { OUTBOX_MAX_BYTES, type OutboxFiles, type WorkspaceMount } from './types.js';

/** Most layers a workspace merges (crucible-box's LAYERS_MAX). */
export const MAX_WORKSPACE_LAYERS = 8;

/** Box paths a workspace may not cover: the box's own places and the system it sees. */
const RESERVED_BOX_PATHS = ['/box', '/tmp', '/dev', '/proc', '/usr', '/etc', '/crucible', '/bin', '/sbin', '/lib', '/lib64'];

/** A host path overlayfs can take in its mount options, as crucible-box passes them (no `,`, `:`, `\`, newline). */
function plainHostPath(path: string): boolean {
  return isAbsolute(path) && normalize(path) === path && !/[,:\\\n\0]/.test(path) && path.length < 1024;
}

/** Check a workspace request. @throws RangeError naming the field. */
export function validateWorkspace(mount: WorkspaceMount, asPid1: boolean): void {
  if (!Array.isArray(mount.layers) || mount.layers.length === 0 || mount.layers.length > MAX_WORKSPACE_LAYERS) {
    throw new RangeError(`workspace.layers must hold 1 to ${MAX_WORKSPACE_LAYERS} host directories`);
  }
  for (const layer of mount.layers) {
    if (!plainHostPath(layer)) throw new RangeError(`workspace.layers: not a plain absolute host path: ${JSON.stringify(layer)}`);
  }
  const box = mount.boxPath;
  if (!isAbsolute(box) || normalize(box) !== box || box === '/' || !/^[A-Za-z0-9_./-]+$/.test(box)
    || RESERVED_BOX_PATHS.some((r) => box === r || box.startsWith(`${r}/`) || r.startsWith(`${box}/`))) {
    throw new RangeError(`workspace.boxPath must be a fresh absolute path of the box (not ${RESERVED_BOX_PATHS.join(', ')}), got ${JSON.stringify(box)}`);
  }
  if (mount.writable !== 'overlay' && mount.writable !== 'read_only') throw new RangeError('workspace.writable must be "overlay" or "read_only"');
  if (mount.keepWrites !== undefined) {
    if (mount.writable !== 'overlay') throw new RangeError('workspace.keepWrites needs writable "overlay"');
    if (!plainHostPath(mount.keepWrites.upperDir) || !plainHostPath(mount.keepWrites.workDir)) {
      throw new RangeError('workspace.keepWrites: upperDir and workDir must be plain absolute host paths');
    }
    if (asPid1) throw new RangeError('workspace.keepWrites is for one-shot runs');
  }
}

/** Make the empty directory crucible-box lays a workspace out on (root's, 0755: the box traverses it). */
export function makeWorkspaceDir(slot: Slot, name: string): string {
  const dir = join(slot.workRoot, name);
  mkdirSync(dir, { mode: 0o755 });
  return dir;
}

/** Make a run's outbox copy-out directory (`.outbox` of its work directory, the slot's). */
export function makeOutboxDir(workDir: string, slot: Slot, chown: (path: string, uid: number, gid: number) => void): void {
  const dir = join(workDir, '.outbox');
  mkdirSync(dir, { mode: 0o700 });
  chown(dir, slot.uid, slot.gid);
}

/**
 * The files a run's init copied into `<workDir>/.outbox` (see `OutboxFiles`). Never follows a link; at most
 * `OUTBOX_MAX_BYTES` of contents, the rest counted in `skipped` with anything that is not a regular file or
 * directory. Never throws: an unreadable entry is skipped.
 */
export function readOutbox(workDir: string, skippedByInit: number): OutboxFiles {
  const files: Record<string, string> = {};
  let skipped = skippedByInit;
  let bytes = 0;
  const walk = (dir: string, prefix: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      skipped++;
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let stat: Stats;
      try {
        stat = lstatSync(path);
      } catch {
        skipped++;
        continue;
      }
      if (stat.isDirectory() && depth < 16) {
        walk(path, `${prefix}${name}/`, depth + 1);
      } else if (stat.isFile() && bytes + stat.size <= OUTBOX_MAX_BYTES) {
        try {
          files[`${prefix}${name}`] = readFileSync(path, 'utf8');
          bytes += stat.size;
        } catch {
          skipped++;
        }
      } else {
        skipped++;
      }
    }
  };
  walk(join(workDir, '.outbox'), '', 0);
  return { files, skipped };
}
