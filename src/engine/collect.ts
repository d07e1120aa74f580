/**
 * Reading back files a finished run left in its kept work directory (a Kattis output validator's
 * `feedback/score.txt` and `feedback/judgemessage.txt`), for `Executor.runCollecting`.
 *
 * The directory's contents were written by a program, so each read is bounded and never leaves the directory:
 * - at most `maxBytes` of a file are read (the rest is not looked at; `truncated` says the file was longer);
 * - a path with an empty, `.` or `..` component is refused before anything is opened;
 * - every directory on the way must be a real directory (`lstat`, no symbolic link), the file is opened with
 *   `O_NOFOLLOW | O_NONBLOCK` (a link or a FIFO cannot redirect or block the read) and must be a regular file
 *   (`fstat` of what was opened), and the opened file's own path (`/proc/self/fd`) must lie under the directory, so
 *   a directory swapped for a link between the checks and the open is caught too.
 * The sandbox's copy-out (`src/sandbox/native/workspace.h`) keeps only directories and regular files, so in a real
 * box a link the program made is already gone; these rules hold on their own (the unsafe mode runs a program in the
 * host directory itself) and cost a few system calls.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { CollectedFile } from '../judge/plan.js';

/** Bytes read back of one collected file at most, unless a caller says otherwise (64 KiB). */
export const COLLECT_MAX_BYTES = 64 * 1024;

/** Why `relative` cannot name a file under a directory, or null when it can (`a/b.txt`: no empty, `.`, `..` part, not absolute). */
function badName(relative: string): string | null {
  const parts = relative.split('/');
  return parts.some((p) => p === '' || p === '.' || p === '..') ? `"${relative}" is not a plain relative path` : null;
}

/** Why the directories on the way to `relative` under `root` are not all real directories, null when they are; undefined when one is missing. */
function badDirectories(root: string, relative: string): string | null | undefined {
  const parts = relative.split('/');
  for (let i = 1; i < parts.length; i++) {
    const path = parts.slice(0, i).join('/');
    let stat;
    try {
      stat = lstatSync(join(root, path));
    } catch {
      return undefined;
    }
    if (stat.isSymbolicLink()) return `${path} is a symbolic link`;
    if (!stat.isDirectory()) return `${path} is not a directory`;
  }
  return null;
}

/** Up to `maxBytes` of an open file, and whether there was more. */
function readCapped(fd: number, maxBytes: number): { readonly text: string; readonly truncated: boolean } {
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  for (let n = -1; n !== 0 && length < buffer.length;) {
    n = readSync(fd, buffer, length, buffer.length - length, null);
    length += n;
  }
  return { text: buffer.subarray(0, Math.min(length, maxBytes)).toString('utf8'), truncated: length > maxBytes };
}

/**
 * The file `relative` (slash-separated, e.g. `feedback/score.txt`) under `dir`, read by the rules of the module
 * comment: undefined when it does not exist, else its text (at most `maxBytes`, default `COLLECT_MAX_BYTES`) or
 * the reason it was refused. `dir` must be a directory no program runs in any more (a finished run's kept work
 * directory). Never throws.
 */
export function readCollectedFile(dir: string, relative: string, maxBytes: number = COLLECT_MAX_BYTES): CollectedFile | undefined {
  const bad = badName(relative);
  if (bad !== null) return { refused: bad };
  let root: string;
  try {
    root = realpathSync(dir);
  } catch (error) {
    return { refused: `the work directory cannot be resolved: ${(error as Error).message}` };
  }
  const dirs = badDirectories(root, relative);
  if (dirs === undefined) return undefined;
  if (dirs !== null) return { refused: dirs };
  let fd: number;
  try {
    fd = openSync(join(root, relative), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return { refused: code === 'ELOOP' ? `${relative} is a symbolic link` : `${relative} cannot be opened (${code ?? 'error'})` };
  }
  try {
    if (!fstatSync(fd).isFile()) return { refused: `${relative} is not a regular file` };
    const opened = readlinkSync(`/proc/self/fd/${fd}`);
    if (!opened.startsWith(root + sep)) return { refused: `${relative} resolves outside the work directory` };
    return readCapped(fd, maxBytes);
  } catch (error) {
    return { refused: `${relative} cannot be read: ${(error as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
