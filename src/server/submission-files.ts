/**
 * Extra files of a submission, as SandboxFusion's `/run_code` takes them (`files`: relative path -> base64
 * contents; `sandbox/runners/base.py`, `restore_files`): validated and decoded for the sandbox, which writes them
 * into the run's fresh work directory (`/box`) beside the program, making parent directories as needed.
 *
 * What is accepted, and why:
 * - paths are relative, with components of letters, digits and `._-+@=,~` separated by single `/`; no absolute
 *   path, no empty, `.` or `..` component, none starting with `.` (the box's copy-in skips hidden names), at most `MAX_FILE_DEPTH` levels and `MAX_FILE_PATH_CHARS` characters.
 *   The work directory is fresh and the files are written before anything of the program runs, so no component
 *   can be a symlink the program planted; the sandbox checks the same rule again (`isBoxRelativePath`).
 * - contents are strict base64 (RFC 4648 §4, padded); at most `MAX_FILES` files and `MAX_FILES_BYTES` decoded bytes.
 * - a path may not be both a file and the directory of another, nor name a file Crucible writes itself (the
 *   program's own source file, the language's support files).
 * - as in SandboxFusion, a `null` content and a path containing `IGNORE_THIS_FILE` are skipped.
 * Every refusal is a `ServiceError` `invalid_body` naming the field (`files.<path>`).
 */
import { ServiceError } from './errors.js';

/** Most files one submission may bring. */
export const MAX_FILES = 256;
/** Most decoded bytes of all files of one submission (8 MiB; the body limit is 16 MiB of base64 and JSON). */
export const MAX_FILES_BYTES = 8 * 1024 * 1024;
/** Most characters of one path. */
export const MAX_FILE_PATH_CHARS = 255;
/** Most components of one path (the sandbox copies a compile box's work directory 16 levels deep). */
export const MAX_FILE_DEPTH = 8;

const COMPONENT = /^[A-Za-z0-9._\-+@=,~]+$/;
/** Strict padded base64 (RFC 4648 §4), checked without a backtracking pattern (contents may be megabytes). */
function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/** Why `path` is not an acceptable relative path, or null when it is. */
function pathProblem(path: string): string | null {
  if (path.length === 0) return 'an empty path';
  if (path.length > MAX_FILE_PATH_CHARS) return `a path longer than ${MAX_FILE_PATH_CHARS} characters`;
  if (path.startsWith('/')) return 'an absolute path; only paths relative to the working directory are accepted';
  const parts = path.split('/');
  if (parts.some((p) => p === '..')) return 'a ".." component; paths must stay inside the working directory';
  if (parts.some((p) => p === '' || p === '.')) return 'an empty or "." component';
  const hidden = parts.find((p) => p.startsWith('.'));
  if (hidden !== undefined) return `the hidden name ${JSON.stringify(hidden)}: names starting with "." are not accepted`;
  if (parts.length > MAX_FILE_DEPTH) return `more than ${MAX_FILE_DEPTH} levels`;
  const bad = parts.find((p) => !COMPONENT.test(p));
  if (bad !== undefined) return `the component ${JSON.stringify(bad)}: names are letters, digits and ._-+@=,~`;
  return null;
}

/**
 * Validate and decode a submission's `files` (path -> base64 or null). `reserved` are the names Crucible writes in
 * the work directory itself (the source file, support files): a file of the same path is refused.
 * @returns path -> bytes, without the skipped entries (null contents, `IGNORE_THIS_FILE`).
 * @throws ServiceError `invalid_body` naming `files.<path>` and what is wrong.
 */
export function decodeSubmissionFiles(files: Readonly<Record<string, string | null>>, reserved: readonly string[]):
  Record<string, Uint8Array> {
  const decoded: Record<string, Uint8Array> = {};
  let bytes = 0;
  const entries = Object.entries(files).filter(([path, contents]) => contents !== null && !path.includes('IGNORE_THIS_FILE'));
  if (entries.length > MAX_FILES) {
    throw new ServiceError('invalid_body', `files: ${entries.length} files; at most ${MAX_FILES} are accepted`, 'files');
  }
  for (const [path, contents] of entries) {
    const field = `files.${path}`;
    const problem = pathProblem(path);
    if (problem !== null) throw new ServiceError('invalid_body', `${field}: ${problem}`, field);
    if (reserved.includes(path)) {
      throw new ServiceError('invalid_body', `${field}: Crucible writes the program itself as "${path}"; give the file another name`, field);
    }
    if (!isBase64(contents!)) throw new ServiceError('invalid_body', `${field}: the contents are not valid base64`, field);
    const data = Buffer.from(contents!, 'base64');
    bytes += data.length;
    if (bytes > MAX_FILES_BYTES) {
      throw new ServiceError('invalid_body', `${field}: the files exceed ${MAX_FILES_BYTES} bytes in all (decoded)`, field);
    }
    decoded[path] = new Uint8Array(data.buffer, data.byteOffset, data.length);
  }
  const paths = new Set(Object.keys(decoded));
  for (const path of paths) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/');
      if (paths.has(dir)) {
        throw new ServiceError('invalid_body', `files.${dir}: it is a file and also the directory of "${path}"`, `files.${dir}`);
      }
    }
  }
  return decoded;
}
