// Choosing and checking the Python interpreter that runs the server. No vscode import.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface PythonChoice {
  python: string;
  /** Where the choice came from, for messages: "setting", "workspace .venv" or "default". */
  source: 'setting' | 'workspace .venv' | 'default';
}

export function venvPython(folder: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? path.join(folder, '.venv', 'Scripts', 'python.exe') : path.join(folder, '.venv', 'bin', 'python');
}

/**
 * The interpreter: the `ascendc.server.pythonPath` setting (with ${workspaceFolder} and ~ expanded),
 * else the first workspace folder's `.venv` interpreter when it exists, else `python3`.
 */
export function resolvePython(
  setting: string | undefined,
  workspaceFolders: string[],
  exists: (p: string) => boolean = fs.existsSync,
  platform: NodeJS.Platform = process.platform,
): PythonChoice {
  const configured = (setting ?? '').trim();
  if (configured) {
    let p = configured.replace(/\$\{workspaceFolder\}/g, workspaceFolders[0] ?? '.');
    if (p === '~' || p.startsWith('~/')) {
      p = path.join(process.env.HOME ?? '', p.slice(1));
    }
    if (!path.isAbsolute(p) && p.includes('/') && workspaceFolders[0]) {
      p = path.resolve(workspaceFolders[0], p);
    }
    return { python: p, source: 'setting' };
  }
  for (const folder of workspaceFolders) {
    const candidate = venvPython(folder, platform);
    if (exists(candidate)) {
      return { python: candidate, source: 'workspace .venv' };
    }
  }
  return { python: platform === 'win32' ? 'python' : 'python3', source: 'default' };
}

export type PythonCheck =
  | { ok: true; version: string }
  | { ok: false; kind: 'no-python' | 'no-package' | 'timeout'; detail: string };

/** Runs `python -c "import ascendc_lsp"` (bounded) to tell a missing interpreter from a missing package. */
export function checkPython(python: string, timeoutMs = 30000, env: NodeJS.ProcessEnv = process.env): Promise<PythonCheck> {
  const code = 'import sys, ascendc_lsp; print(getattr(ascendc_lsp, "__version__", "?"), sys.version.split()[0])';
  return new Promise((resolve) => {
    execFile(python, ['-c', code], { timeout: timeoutMs, env, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) {
        resolve({ ok: true, version: stdout.trim() });
        return;
      }
      const err = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
      if (err.code === 'ENOENT' || err.code === 'EACCES') {
        resolve({ ok: false, kind: 'no-python', detail: `${python}: ${err.code === 'ENOENT' ? 'not found' : 'not executable'}` });
      } else if (err.killed || err.signal === 'SIGTERM') {
        resolve({ ok: false, kind: 'timeout', detail: `${python} did not finish "import ascendc_lsp" within ${timeoutMs / 1000} s` });
      } else {
        const lines = String(stderr || err.message).trim().split('\n');
        resolve({ ok: false, kind: 'no-package', detail: lines[lines.length - 1] ?? '' });
      }
    });
  });
}
