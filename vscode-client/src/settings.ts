// The extension's settings, typed (as ruff-vscode does): one reader, one shape; the server gets the rest.
import * as vscode from 'vscode';

export interface DocumentFilterSetting {
  language?: string;
  scheme?: string;
  pattern?: string;
}

export interface ExtensionSettings {
  server: { pythonPath: string; extraArgs: string[]; cppSelector: DocumentFilterSetting[] };
  /** Attach to C++ files that are kernels (by path or content) beside the C++ language servers. */
  attachToCpp: boolean;
  soc: string;
  toolchain: { backend: 'emulator' | 'cann'; cannHome: string };
}

export const SECTION = 'ascendc';
export const DEFAULT_SOC = 'Ascend910B';

/** Settings only the client uses; the server is not sent them (it warns about keys it does not know). */
export const CLIENT_ONLY_SETTINGS = ['server', 'attachToCpp', 'trace'];

export function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

export function readSettings(cfg: vscode.WorkspaceConfiguration = config()): ExtensionSettings {
  const selector = cfg.get<unknown>('server.cppSelector');
  const filters = Array.isArray(selector) ? selector.filter((f): f is DocumentFilterSetting => Boolean(f) && typeof f === 'object') : [];
  const backend = cfg.get<string>('toolchain.backend', 'emulator');
  return {
    server: {
      pythonPath: cfg.get<string>('server.pythonPath', ''),
      extraArgs: (cfg.get<unknown[]>('server.extraArgs', []) ?? []).map(String),
      cppSelector: filters.length ? filters : [{ language: 'cpp', scheme: 'file' }],
    },
    attachToCpp: cfg.get<boolean>('attachToCpp', true),
    soc: cfg.get<string>('soc', DEFAULT_SOC) || DEFAULT_SOC,
    toolchain: { backend: backend === 'cann' ? 'cann' : 'emulator', cannHome: cfg.get<string>('toolchain.cannHome', '') },
  };
}

export function serverSettings(raw: unknown): Record<string, unknown> {
  const settings = raw && typeof raw === 'object' ? { ...(raw as Record<string, unknown>) } : {};
  for (const key of CLIENT_ONLY_SETTINGS) delete settings[key];
  return settings;
}

/** The `ascendc.*` settings the server reads, as a plain object. */
export function settingsSnapshot(): Record<string, unknown> {
  return serverSettings(JSON.parse(JSON.stringify(config())));
}
