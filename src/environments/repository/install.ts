/**
 * A repository's dependency layer: the instance's install command (`npm ci --ignore-scripts ...`) run once in a
 * box over the tree layer, whose writes are kept (`WorkspaceMount.keepWrites`) and become a layer of their own:
 * its `node_modules`. The box's only network is the package registry, through the egress proxy
 * (`src/sandbox/egress.ts`; a trusted forwarder in the box gives the client a loopback proxy port). Lifecycle
 * scripts are off (`npm_config_ignore_scripts`) unless the instance says otherwise. The install runs under limits
 * from outside like any run; its package cache lives in the run's /tmp and dies with it.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { EnvironmentError } from '../../judge/environment.js';
import { EGRESS_BOX_SOCKET, EgressProxy, registryDestination } from '../../sandbox/egress.js';
import type { Sandbox } from '../../sandbox/index.js';
import type { Limits } from '../../sandbox/types.js';

/** Limits of an install: 30 min of CPU, an hour of wall time, 4 GiB, 1024 processes, 4 GiB of /tmp (the package cache). */
export const INSTALL_LIMITS: Limits = {
  cpuMs: 30 * 60_000, wallMs: 60 * 60_000, memoryKiB: 4 * 1024 * 1024, processes: 1024, fileSizeKiB: 1024 * 1024,
  openFiles: 4096, outputBytes: 1 << 20, diskKiB: 4 * 1024 * 1024,
};

/** The loopback port of the in-box forwarder. */
const PROXY_PORT = 3128;

/** What an install needs. */
export interface InstallRequest {
  readonly sandbox: Sandbox;
  /** The tree layer (host path). */
  readonly tree: string;
  readonly installCmd: string;
  readonly installScripts: boolean;
  /** Registry URL (https), the only place the box may reach. */
  readonly registry: string;
  /** Empty host directories on one filesystem: the kept writes and overlayfs's work directory. */
  readonly upperDir: string;
  readonly workDir: string;
  readonly signal?: AbortSignal;
}

/** The bash that starts the forwarder, waits for it, then runs the install command. */
function installScript(installCmd: string): string {
  return [
    'set -u',
    `node /crucible/harness/egress/forward.cjs ${PROXY_PORT} ${EGRESS_BOX_SOCKET} /tmp/.proxy-ready &`,
    'for i in $(seq 1 200); do [ -e /tmp/.proxy-ready ] && break; sleep 0.05; done',
    'cd /testbed || exit 90',
    installCmd,
  ].join('\n');
}

/** Take the kept writes over as Crucible's (root's), so that no uid of a slot owns a file of a layer. */
function ownTree(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/chown', ['-R', '-h', `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`, path], (error, _out, stderr) =>
      (error === null ? resolve() : reject(new EnvironmentError(`taking over the installed files: ${String(stderr).trim() || error.message}`))));
  });
}

/**
 * Run the install (see the module comment); on success `upperDir` holds the layer (only its `node_modules` is
 * kept; none for a repository without dependencies). @throws EnvironmentError with the install's output when it fails; the signal's reason when aborted.
 */
export async function installDependencies(r: InstallRequest): Promise<void> {
  const proxy = await EgressProxy.start([registryDestination(r.registry)]);
  let result;
  try {
    ({ result } = await r.sandbox.run({
      argv: ['/bin/bash', '-c', installScript(r.installCmd)],
      env: {
        HOME: '/tmp', CI: 'true',
        npm_config_registry: r.registry,
        npm_config_https_proxy: `http://127.0.0.1:${PROXY_PORT}`,
        npm_config_proxy: `http://127.0.0.1:${PROXY_PORT}`,
        npm_config_cache: '/tmp/npm-cache',
        npm_config_ignore_scripts: r.installScripts ? 'false' : 'true',
        npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
        npm_config_userconfig: '/tmp/.npmrc-user',
        // The host's trust store (a TLS-inspecting proxy's CA): the host's global npmrc (under /usr) is read as is.
        ...(process.env.NODE_EXTRA_CA_CERTS === undefined ? {} : { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS }),
      },
      limits: INSTALL_LIMITS,
      mounts: [proxy.mount],
      loopback: true,
      workspace: { layers: [r.tree], boxPath: '/testbed', writable: 'overlay', keepWrites: { upperDir: r.upperDir, workDir: r.workDir } },
      ...(r.signal === undefined ? {} : { signal: r.signal }),
    }));
  } finally {
    await proxy.close();
  }
  if (result.cancelled) r.signal?.throwIfAborted();
  if (result.status !== 'ok') {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-30).join('\n');
    throw new EnvironmentError(`the install command "${r.installCmd}" failed (${result.status}${result.reason === undefined ? '' : `: ${result.reason}`}):\n${output}`);
  }
  // A repository without dependencies gets no node_modules: its layer is empty.
  for (const name of readdirSync(r.upperDir)) {
    if (name !== 'node_modules') rmSync(join(r.upperDir, name), { recursive: true, force: true });
  }
  await ownTree(r.upperDir);
}
