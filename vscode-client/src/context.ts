// The small core every feature gets: the output channel, the language client's lifecycle, typed server commands
// (protocol.ts, generated from the server) with progress and one error path, and webview panels.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentSelector,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
  WorkDoneProgress,
} from 'vscode-languageclient/node';
import { describeError, isCancelled, isCommandNotFound } from './errors';
import { isKernelFile } from './kernelfiles';
import { ErrorCode, ServerCommandTypes } from './protocol';
import { checkPython, PythonCheck, PythonChoice, resolvePython } from './python';
import { ExtensionSettings, readSettings, serverSettings, settingsSnapshot } from './settings';

export type ServerCommand = keyof ServerCommandTypes;
export type ParamsOf<K extends ServerCommand> = ServerCommandTypes[K]['params'];
export type ResultOf<K extends ServerCommand> = ServerCommandTypes[K]['result'];

export function workspaceDirs(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function serverEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' };
}

/** The documents the client is attached to: `.asc` files, and C++ files (the middleware lets kernels through). */
export function documentSelector(settings: ExtensionSettings): DocumentSelector {
  const selector: Array<{ scheme?: string; language?: string; pattern?: string }> = [{ scheme: 'file', pattern: '**/*.asc' }];
  if (settings.attachToCpp) {
    for (const filter of settings.server.cppSelector) selector.push({ language: 'cpp', ...filter });
  }
  return selector as DocumentSelector;
}

export class AscendcContext {
  readonly output: vscode.LogOutputChannel;
  client: LanguageClient | undefined;
  lastStartProblem: string | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private readonly clientHooks: Array<(c: LanguageClient) => void> = [];
  private readonly stateHooks: Array<() => void> = [];
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  /** URIs of documents the server was told about (kernels); other C++ files are left to clangd. */
  private readonly synced = new Set<string>();

  constructor(readonly extension: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('AscendC Language Server', { log: true });
    extension.subscriptions.push(this.output, { dispose: () => void this.stop() });
  }

  settings(): ExtensionSettings {
    return readSettings();
  }

  register(id: string, fn: (...args: unknown[]) => unknown): void {
    this.extension.subscriptions.push(vscode.commands.registerCommand(id, fn));
  }

  /** Called with each new client before it starts (register notification handlers here). */
  onClient(hook: (c: LanguageClient) => void): void {
    this.clientHooks.push(hook);
  }

  /** Called when the client starts, stops or fails to start. */
  onState(hook: () => void): void {
    this.stateHooks.push(hook);
  }

  isServed(doc: vscode.TextDocument | undefined): boolean {
    return doc !== undefined && this.synced.has(doc.uri.toString());
  }

  isKernelDocument(doc: vscode.TextDocument | undefined): boolean {
    if (!doc) return false;
    if (this.isServed(doc)) return true;
    if (doc.uri.scheme !== 'file') return false;
    if (/\.asc$/i.test(doc.uri.fsPath)) return true;
    return doc.languageId === 'cpp' && this.settings().attachToCpp && isKernelFile(doc.uri.fsPath, doc.getText());
  }

  private changed(): void {
    for (const hook of this.stateHooks) hook();
  }

  // -- lifecycle ---------------------------------------------------------------------------------

  private async showPythonProblem(choice: PythonChoice, check: Exclude<PythonCheck, { ok: true }>): Promise<void> {
    let message: string;
    const actions = ['Open Settings', 'Show Log'];
    if (check.kind === 'no-python') {
      message = `AscendC: Python interpreter "${choice.python}" (${choice.source}) was not found. Set "ascendc.server.pythonPath" to a Python 3.11+ interpreter that has the ascendc-lsp package installed.`;
    } else if (check.kind === 'timeout') {
      message = `AscendC: ${check.detail}. The language server was not started.`;
    } else {
      message = `AscendC: the Python package ascendc_lsp is not installed for "${choice.python}" (${check.detail}). Install it (\`${choice.python} -m pip install ascendc-lsp\`, or \`pip install -e .\` in a checkout) or set "ascendc.server.pythonPath".`;
      actions.splice(1, 0, 'Copy Install Command');
    }
    this.lastStartProblem = message;
    this.output.error(message);
    this.changed();
    const pick = await vscode.window.showErrorMessage(message, ...actions);
    if (pick === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'ascendc.server.pythonPath');
    } else if (pick === 'Copy Install Command') {
      await vscode.env.clipboard.writeText(`${choice.python} -m pip install ascendc-lsp`);
    } else if (pick === 'Show Log') {
      this.output.show(true);
    }
  }

  /** Kernels reach the server; other C++ documents never do (clangd serves them). */
  private middleware(): Middleware {
    const key = (doc: vscode.TextDocument) => doc.uri.toString();
    const served = (doc: vscode.TextDocument) => this.synced.has(key(doc));
    return {
      didOpen: async (doc, next) => {
        if (!this.isKernelDocument(doc)) return;
        this.synced.add(key(doc));
        await next(doc);
      },
      didChange: async (event, next) => {
        if (served(event.document)) return next(event);
        // a C++ file that became a kernel (the marker was just typed): open it on the server now
        if (!this.client || !this.isKernelDocument(event.document)) return;
        this.synced.add(key(event.document));
        await this.client.sendNotification(
          DidOpenTextDocumentNotification.type,
          this.client.code2ProtocolConverter.asOpenTextDocumentParams(event.document),
        );
      },
      didSave: async (doc, next) => (served(doc) ? next(doc) : undefined),
      didClose: async (doc, next) => {
        if (this.synced.delete(key(doc))) await next(doc);
      },
      provideHover: (doc, pos, token, next) => (served(doc) ? next(doc, pos, token) : undefined),
      provideCompletionItem: (doc, pos, ctx, token, next) => (served(doc) ? next(doc, pos, ctx, token) : undefined),
      provideCodeActions: (doc, range, ctx, token, next) => (served(doc) ? next(doc, range, ctx, token) : undefined),
      provideCodeLenses: (doc, token, next) => (served(doc) ? next(doc, token) : undefined),
      provideDocumentSymbols: (doc, token, next) => (served(doc) ? next(doc, token) : undefined),
      provideInlayHints: (doc, range, token, next) => (served(doc) ? next(doc, range, token) : undefined),
      workspace: {
        // Settings reach the server without the client-only keys: initializationOptions, answers to
        // workspace/configuration (here) and didChangeConfiguration pushes (pushSettings).
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value, i) => {
            const section = params.items[i]?.section;
            if (section === 'ascendc') return serverSettings(value);
            if (section === undefined && value && typeof value === 'object' && 'ascendc' in value) {
              return { ...value, ascendc: serverSettings((value as Record<string, unknown>).ascendc) };
            }
            return value;
          });
        },
      },
    };
  }

  private async start(): Promise<LanguageClient | undefined> {
    const settings = this.settings();
    const choice = resolvePython(settings.server.pythonPath, workspaceDirs());
    this.output.info(`Python interpreter: ${choice.python} (${choice.source})`);
    const check = await checkPython(choice.python, 30000, serverEnv());
    if (!check.ok) {
      void this.showPythonProblem(choice, check);
      return undefined;
    }
    this.output.info(`ascendc_lsp ${check.version}`);
    const serverOptions: ServerOptions = {
      command: choice.python,
      // TransportKind.stdio appends `--stdio`: `python -m ascendc_lsp serve --stdio`.
      args: ['-m', 'ascendc_lsp', 'serve', ...settings.server.extraArgs],
      transport: TransportKind.stdio,
      options: { cwd: workspaceDirs()[0], env: serverEnv() },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(settings),
      outputChannel: this.output,
      traceOutputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: { settings: settingsSnapshot() },
      middleware: this.middleware(),
      markdown: { isTrusted: false, supportHtml: false },
    };
    const c = new LanguageClient('ascendc', 'AscendC Language Server', serverOptions, clientOptions);
    for (const hook of this.clientHooks) hook(c);
    c.onDidChangeState(() => this.changed());
    this.synced.clear();
    try {
      await c.start();
    } catch (error) {
      const message = `AscendC: the language server failed to start: ${describeError(error)}`;
      this.lastStartProblem = message;
      this.output.error(message);
      this.changed();
      void vscode.window.showErrorMessage(message, 'Show Log').then((pick) => pick && this.output.show(true));
      return undefined;
    }
    const info = c.initializeResult?.serverInfo;
    const commands = c.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    this.output.info(`Server started: ${info?.name ?? '?'} ${info?.version ?? ''}; commands: ${commands.join(', ') || '(none)'}`);
    this.lastStartProblem = undefined;
    this.client = c;
    this.changed();
    return c;
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) {
      try {
        await c.stop(5000);
      } catch (error) {
        this.output.warn(`Stopping the server: ${describeError(error)}`);
      }
    }
  }

  async ensureClient(): Promise<LanguageClient | undefined> {
    if (this.client && this.client.state === State.Running) return this.client;
    if (!this.starting) {
      this.starting = (async () => {
        await this.stop();
        return this.start();
      })().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async restart(): Promise<void> {
    this.output.info('Restarting the server');
    await this.stop();
    const c = await this.ensureClient();
    if (c) void vscode.window.setStatusBarMessage('AscendC language server restarted', 3000);
  }

  async pushSettings(): Promise<void> {
    if (!this.client || this.client.state !== State.Running) return;
    try {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: { ascendc: settingsSnapshot() } });
    } catch (error) {
      this.output.warn(`Sending the settings: ${describeError(error)}`);
    }
  }

  // -- server commands ---------------------------------------------------------------------------

  private showNotAvailable(command: string): void {
    const message = `AscendC: this version of the language server does not provide the command "${command}" yet. Update the ascendc-lsp Python package (or check "ascendc.server.pythonPath").`;
    this.output.warn(message);
    void vscode.window.showWarningMessage(message, 'Show Log').then((pick) => pick && this.output.show(true));
  }

  /**
   * A typed server command with a cancellable progress notification. Cancelling sends `$/cancelRequest`
   * and returns undefined at once; server work-done progress shows in the same notification. A failure (a
   * JSON-RPC error with a code and a one-line message: the contract's one failure shape) is shown here and
   * returns undefined.
   */
  async execute<K extends ServerCommand>(
    command: K,
    params: ParamsOf<K>,
    title: string,
    options: { onCancelled?: (seconds: number) => void } = {},
  ): Promise<ResultOf<K> | undefined> {
    const c = await this.ensureClient();
    if (!c) {
      void vscode.window.showErrorMessage(this.lastStartProblem ?? 'AscendC: the language server is not running.', 'Show Log').then((p) => p && this.output.show(true));
      return undefined;
    }
    this.output.info(`executeCommand ${command} ${JSON.stringify(params).slice(0, 2000)}`);
    return vscode.window.withProgress<ResultOf<K> | undefined>(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const workDoneToken = crypto.randomUUID();
        let lastPct = 0;
        const sub = c.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
          if (value.kind === 'end') return;
          const pct = typeof value.percentage === 'number' ? value.percentage : undefined;
          progress.report({ message: value.message, increment: pct !== undefined ? Math.max(0, pct - lastPct) : undefined });
          if (pct !== undefined) lastPct = Math.max(lastPct, pct);
        });
        const cancelled = new Promise<'cancelled'>((resolve) => token.onCancellationRequested(() => resolve('cancelled')));
        const started = Date.now();
        try {
          const request = c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [params], workDoneToken }, token);
          const result = await Promise.race([request, cancelled]);
          if (result === 'cancelled' || token.isCancellationRequested) {
            request.then(undefined, () => undefined);
            this.output.info(`${command}: cancelled by the user`);
            // the title the user saw ("AscendC: running x.cpp in the emulator…"), not the command's wire id
            void vscode.window.setStatusBarMessage(`${title.replace(/…$/, '')}: cancelled`, 4000);
            options.onCancelled?.((Date.now() - started) / 1000);
            return undefined;
          }
          this.output.info(`${command}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          this.output.debug(JSON.stringify(result, null, 2));
          return result as ResultOf<K>;
        } catch (error) {
          if (token.isCancellationRequested || isCancelled(error)) {
            this.output.info(`${command}: cancelled`);
            options.onCancelled?.((Date.now() - started) / 1000);
            return undefined;
          }
          if (isCommandNotFound(error, command)) {
            this.showNotAvailable(command);
            return undefined;
          }
          const code = (error as { code?: number }).code;
          const prefix = code === ErrorCode.invalidParams ? 'the client and server disagree on the command: ' : '';
          const message = `AscendC: ${prefix}${describeError(error).replace(/ \(code -?\d+\)$/, '')}`;
          this.output.error(`${command} failed (code ${code ?? '?'}): ${describeError(error)}`);
          void vscode.window.showErrorMessage(message, 'Show Log').then((pick) => pick && this.output.show(true));
          return undefined;
        } finally {
          sub.dispose();
        }
      },
    );
  }

  // -- webviews ----------------------------------------------------------------------------------

  showPanel(kind: string, title: string, html: string): vscode.WebviewPanel {
    let panel = this.panels.get(kind);
    if (!panel) {
      panel = vscode.window.createWebviewPanel(`ascendc.${kind}`, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false, enableFindWidget: true });
      this.panels.set(kind, panel);
      panel.onDidDispose(() => this.panels.delete(kind));
    } else {
      panel.reveal(vscode.ViewColumn.Beside, true);
    }
    panel.title = title;
    panel.webview.html = html;
    return panel;
  }
}
