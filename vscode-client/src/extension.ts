// AscendC VS Code client: starts `python -m ascendc_lsp serve --stdio`, contributes commands that call
// the server's `workspace/executeCommand` handlers, and shows results in script-free webviews.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  DocumentSelector,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
  WorkDoneProgress,
} from 'vscode-languageclient/node';
import { describeError, isCancelled, isCommandNotFound } from './errors';
import { checkPython, PythonCheck, PythonChoice, resolvePython } from './python';
import { esc, renderExplain, renderRunResult, renderTimeline } from './render';
import { buildSpec, DTYPES, findSpecsBeside, parseNames, parseShape, peekSpec, specToText, validateKernelName, validateNames } from './specs';
import { formatStatus, isOverCapacity, KernelStatus, statusTooltip } from './status';
import { parseTrace } from './timeline';

export const SOCS = ['Ascend910B', 'Ascend910_93', 'Ascend310P', 'Ascend310B', 'Ascend910A', 'Ascend950'];

/** VS Code command ids of this extension. Server commands with the same ids are not auto-registered. */
const OWN_COMMANDS = new Set([
  'ascendc.generateKernel',
  'ascendc.explainLog',
  'ascendc.runKernel',
  'ascendc.showTimeline',
  'ascendc.restartServer',
  'ascendc.showOutput',
  'ascendc.selectSoc',
]);

let context: vscode.ExtensionContext;
let output: vscode.LogOutputChannel;
let client: LanguageClient | undefined;
let starting: Promise<LanguageClient | undefined> | undefined;
let lastStartProblem: string | undefined;
/** Commands the server advertised (static capability + dynamic registrations); undefined = no list. */
let advertisedCommands: Set<string> | undefined;
let statusItem: vscode.StatusBarItem;
const statuses = new Map<string, KernelStatus>();
const panels = new Map<string, vscode.WebviewPanel>();

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('ascendc');
}

function workspaceDirs(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function serverEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' };
}

export function documentSelector(cfg: vscode.WorkspaceConfiguration = config()): DocumentSelector {
  const selector: DocumentSelector = [
    { scheme: 'file', language: 'ascendc' },
    { scheme: 'untitled', language: 'ascendc' },
  ];
  if (cfg.get<boolean>('attachToCpp', true)) {
    const cpp = cfg.get<Array<Record<string, string>>>('server.cppSelector', [{ language: 'cpp', scheme: 'file' }]);
    for (const filter of Array.isArray(cpp) ? cpp : []) {
      if (filter && typeof filter === 'object') selector.push({ language: 'cpp', ...filter } as never);
    }
  }
  return selector;
}

/** Settings only the client uses; the server is not sent them (it warns about keys it does not know). */
const CLIENT_ONLY_SETTINGS = ['server', 'attachToCpp', 'trace'];

function serverSettings(raw: unknown): Record<string, unknown> {
  const settings = raw && typeof raw === 'object' ? { ...(raw as Record<string, unknown>) } : {};
  for (const key of CLIENT_ONLY_SETTINGS) delete settings[key];
  return settings;
}

/** The `ascendc.*` settings the server reads, as a plain object. */
function settingsSnapshot(): Record<string, unknown> {
  return serverSettings(JSON.parse(JSON.stringify(config())));
}

// ---------------------------------------------------------------------------------------------
// Server lifecycle

async function showPythonProblem(choice: PythonChoice, check: Exclude<PythonCheck, { ok: true }>): Promise<void> {
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
  lastStartProblem = message;
  output.error(message);
  const pick = await vscode.window.showErrorMessage(message, ...actions);
  if (pick === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'ascendc.server.pythonPath');
  } else if (pick === 'Copy Install Command') {
    await vscode.env.clipboard.writeText(`${choice.python} -m pip install ascendc-lsp`);
  } else if (pick === 'Show Log') {
    output.show(true);
  }
}

/** Keeps our own command ids from being registered twice (the client registers every server command). */
function patchExecuteCommandFeature(c: LanguageClient): void {
  const feature = c.getFeature(ExecuteCommandRequest.method) as unknown as {
    register(data: { id: string; registerOptions: { commands?: string[] } }): void;
  };
  if (!feature || typeof feature.register !== 'function') return;
  const register = feature.register.bind(feature);
  feature.register = (data) => {
    const commands = data.registerOptions.commands ?? [];
    advertisedCommands = new Set([...(advertisedCommands ?? []), ...commands]);
    const foreign = commands.filter((cmd) => !OWN_COMMANDS.has(cmd));
    register({ ...data, registerOptions: { ...data.registerOptions, commands: foreign } });
  };
}

async function startClient(): Promise<LanguageClient | undefined> {
  const cfg = config();
  const choice = resolvePython(cfg.get<string>('server.pythonPath'), workspaceDirs());
  output.info(`Python interpreter: ${choice.python} (${choice.source})`);
  setStatusText('$(sync~spin) AscendC', 'AscendC: starting the language server…');
  const check = await checkPython(choice.python, 30000, serverEnv());
  if (!check.ok) {
    setStatusText('$(error) AscendC', 'AscendC language server is not running (click for the log)', true);
    void showPythonProblem(choice, check);
    return undefined;
  }
  output.info(`ascendc_lsp ${check.version}`);
  const extraArgs = cfg.get<string[]>('server.extraArgs', []);
  const serverOptions: ServerOptions = {
    command: choice.python,
    // TransportKind.stdio appends `--stdio`: `python -m ascendc_lsp serve --stdio`.
    args: ['-m', 'ascendc_lsp', 'serve', ...extraArgs],
    transport: TransportKind.stdio,
    options: { cwd: workspaceDirs()[0], env: serverEnv() },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(cfg),
    outputChannel: output,
    traceOutputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // Settings reach the server three ways, all without the client-only keys: initializationOptions,
    // answers to workspace/configuration (middleware below), and didChangeConfiguration pushes (pushSettings).
    initializationOptions: { settings: settingsSnapshot() },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value, i) => {
            const section = params.items[i]?.section;
            return section === 'ascendc' ? serverSettings(value) : section === undefined && value && typeof value === 'object' && 'ascendc' in value ? { ...value, ascendc: serverSettings((value as Record<string, unknown>).ascendc) } : value;
          });
        },
      },
    },
    markdown: { isTrusted: false, supportHtml: false },
  };
  const c = new LanguageClient('ascendc', 'AscendC Language Server', serverOptions, clientOptions);
  advertisedCommands = undefined;
  patchExecuteCommandFeature(c);
  c.onNotification('ascendc/status', (params: KernelStatus) => {
    if (params && typeof params.uri === 'string') {
      statuses.set(normalizeUri(params.uri), params);
      updateStatus();
    }
  });
  c.onDidChangeState((e) => {
    if (e.newState === State.Stopped && client === c) {
      setStatusText('$(error) AscendC', 'AscendC language server stopped (click to restart)', true);
    } else if (e.newState === State.Running) {
      updateStatus();
    }
  });
  try {
    await c.start();
  } catch (error) {
    const message = `AscendC: the language server failed to start: ${describeError(error)}`;
    lastStartProblem = message;
    output.error(message);
    setStatusText('$(error) AscendC', message, true);
    void vscode.window.showErrorMessage(message, 'Show Log').then((pick) => pick && output.show(true));
    return undefined;
  }
  const caps = c.initializeResult?.capabilities;
  const staticCommands = caps?.executeCommandProvider?.commands;
  if (staticCommands && !advertisedCommands) advertisedCommands = new Set(staticCommands);
  const info = c.initializeResult?.serverInfo;
  output.info(`Server started: ${info?.name ?? '?'} ${info?.version ?? ''}; commands: ${[...(advertisedCommands ?? [])].join(', ') || '(none advertised)'}`);
  lastStartProblem = undefined;
  client = c;
  updateStatus();
  return c;
}

async function pushSettings(): Promise<void> {
  if (!client || client.state !== State.Running) return;
  try {
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { ascendc: settingsSnapshot() } });
  } catch (error) {
    output.warn(`Sending the settings: ${describeError(error)}`);
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop(5000);
    } catch (error) {
      output.warn(`Stopping the server: ${describeError(error)}`);
    }
  }
}

async function ensureClient(): Promise<LanguageClient | undefined> {
  if (client && client.state === State.Running) return client;
  if (!starting) {
    starting = (async () => {
      await stopClient();
      return startClient();
    })().finally(() => {
      starting = undefined;
    });
  }
  return starting;
}

async function restartServer(): Promise<void> {
  output.info('Restarting the server');
  await stopClient();
  statuses.clear();
  const c = await ensureClient();
  if (c) void vscode.window.setStatusBarMessage('AscendC language server restarted', 3000);
}

// ---------------------------------------------------------------------------------------------
// Status bar

function normalizeUri(uri: string): string {
  try {
    return vscode.Uri.parse(uri).toString();
  } catch {
    return uri;
  }
}

function setStatusText(text: string, tooltip: string, error = false): void {
  statusItem.text = text;
  statusItem.tooltip = tooltip;
  statusItem.command = error ? 'ascendc.showOutput' : 'ascendc.selectSoc';
  statusItem.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  statusItem.show();
}

function isKernelDocument(doc: vscode.TextDocument | undefined): boolean {
  if (!doc) return false;
  if (doc.languageId === 'ascendc') return true;
  return doc.languageId === 'cpp' && config().get<boolean>('attachToCpp', true);
}

function updateStatus(): void {
  if (!statusItem) return;
  if (lastStartProblem && !client) {
    setStatusText('$(error) AscendC', `${lastStartProblem}\n(click for the log)`, true);
    return;
  }
  const doc = vscode.window.activeTextEditor?.document;
  const status = doc ? statuses.get(doc.uri.toString()) : undefined;
  if (!status && !isKernelDocument(doc)) {
    statusItem.hide();
    return;
  }
  const soc = config().get<string>('soc', 'Ascend910B');
  statusItem.text = `$(circuit-board) ${formatStatus(soc, status)}`;
  statusItem.tooltip = statusTooltip(soc, status);
  statusItem.command = 'ascendc.selectSoc';
  statusItem.backgroundColor = isOverCapacity(status) ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  statusItem.show();
}

async function selectSoc(): Promise<void> {
  const current = config().get<string>('soc', 'Ascend910B');
  const pick = await vscode.window.showQuickPick(
    SOCS.map((s) => ({ label: s, description: s === current ? 'current' : undefined })),
    { title: 'AscendC: SoC profile for the checks', placeHolder: current },
  );
  if (!pick) return;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config().update('soc', pick.label, target);
}

// ---------------------------------------------------------------------------------------------
// Server commands

function showNotAvailable(command: string): void {
  const message = `AscendC: this version of the language server does not provide the command "${command}" yet. Update the ascendc-lsp Python package (or check "ascendc.server.pythonPath").`;
  output.warn(message);
  void vscode.window.showWarningMessage(message, 'Show Log').then((pick) => pick && output.show(true));
}

/**
 * `workspace/executeCommand` with a cancellable progress notification. Cancelling sends
 * `$/cancelRequest` (through the request token) and returns undefined at once. Server work-done
 * progress for the request is shown in the same notification. Errors are reported here.
 */
async function executeServerCommand<T>(command: string, args: unknown[], title: string): Promise<T | undefined> {
  const c = await ensureClient();
  if (!c) {
    void vscode.window.showErrorMessage(lastStartProblem ?? 'AscendC: the language server is not running.', 'Show Log').then((p) => p && output.show(true));
    return undefined;
  }
  if (advertisedCommands && !advertisedCommands.has(command)) {
    showNotAvailable(command);
    return undefined;
  }
  output.info(`executeCommand ${command} ${JSON.stringify(args).slice(0, 2000)}`);
  return vscode.window.withProgress<T | undefined>(
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
        const request = c.sendRequest(ExecuteCommandRequest.type, { command, arguments: args, workDoneToken }, token);
        const result = await Promise.race([request, cancelled]);
        if (result === 'cancelled' || token.isCancellationRequested) {
          request.then(undefined, () => undefined);
          output.info(`${command}: cancelled by the user`);
          void vscode.window.setStatusBarMessage(`AscendC: ${command} cancelled`, 4000);
          return undefined;
        }
        output.info(`${command}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        output.debug(JSON.stringify(result, null, 2));
        return result as T;
      } catch (error) {
        if (token.isCancellationRequested || isCancelled(error)) {
          output.info(`${command}: cancelled`);
          return undefined;
        }
        if (isCommandNotFound(error, command)) {
          showNotAvailable(command);
          return undefined;
        }
        const message = `AscendC: ${command} failed: ${describeError(error)}`;
        output.error(message);
        void vscode.window.showErrorMessage(message, 'Show Log').then((pick) => pick && output.show(true));
        return undefined;
      } finally {
        sub.dispose();
      }
    },
  );
}

function showPanel(kind: string, title: string, html: string): vscode.WebviewPanel {
  let panel = panels.get(kind);
  if (!panel) {
    panel = vscode.window.createWebviewPanel(`ascendc.${kind}`, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false, enableFindWidget: true });
    panels.set(kind, panel);
    panel.onDidDispose(() => panels.delete(kind));
  } else {
    panel.reveal(vscode.ViewColumn.Beside, true);
  }
  panel.title = title;
  panel.webview.html = html;
  return panel;
}

// --- Generate Kernel from Spec ----------------------------------------------------------------

interface SpecItem extends vscode.QuickPickItem {
  id: 'file' | 'form' | 'path';
  specPath?: string;
}

async function workspaceSpecs(): Promise<string[]> {
  const uris = await vscode.workspace.findFiles('**/*.{yaml,yml}', '**/{node_modules,.venv,.git,dist,out}/**', 300);
  const specs: string[] = [];
  for (const uri of uris) {
    try {
      const text = fs.readFileSync(uri.fsPath, 'utf8');
      if (peekSpec(text).kernel) specs.push(uri.fsPath);
    } catch {
      /* unreadable: skip */
    }
  }
  return specs.sort();
}

async function specFromForm(): Promise<{ specPath: string; spec: Record<string, unknown> } | undefined> {
  const title = 'AscendC: new kernel';
  const kernel = await vscode.window.showInputBox({ title, prompt: 'Kernel (entry function) name', value: 'add_custom', validateInput: validateKernelName, ignoreFocusOut: true });
  if (!kernel) return undefined;
  const description = await vscode.window.showInputBox({ title, prompt: 'What should the kernel compute? (the LLM reads this)', value: 'Elementwise add of two tensors', ignoreFocusOut: true });
  if (description === undefined) return undefined;
  const inputsText = await vscode.window.showInputBox({ title, prompt: 'Input tensor names (comma separated)', value: 'x, y', validateInput: validateNames, ignoreFocusOut: true });
  if (!inputsText) return undefined;
  const outputsText = await vscode.window.showInputBox({ title, prompt: 'Output tensor names (comma separated)', value: 'z', validateInput: validateNames, ignoreFocusOut: true });
  if (!outputsText) return undefined;
  const shapeText = await vscode.window.showInputBox({
    title,
    prompt: 'Shape of every tensor, e.g. 8, 2048',
    value: '8, 2048',
    validateInput: (v) => (parseShape(v) ? undefined : 'Positive integers separated by commas'),
    ignoreFocusOut: true,
  });
  if (!shapeText) return undefined;
  const dtype = await vscode.window.showQuickPick([...DTYPES], { title, placeHolder: 'Element type', ignoreFocusOut: true });
  if (!dtype) return undefined;
  const inputs = parseNames(inputsText);
  const outputs = parseNames(outputsText);
  const reference = await vscode.window.showInputBox({
    title,
    prompt: 'Reference in Python/numpy (inputs bound by name; assign every output)',
    value: `${outputs[0]} = ${inputs.join(' + ')}`,
    ignoreFocusOut: true,
  });
  if (!reference) return undefined;
  const spec = buildSpec({ kernel, description, inputs, outputs, shape: parseShape(shapeText)!, dtype, reference, soc: config().get<string>('soc') });
  const folder = workspaceDirs()[0] ?? path.join(process.env.HOME ?? '/tmp', 'ascendc-kernels');
  const specPath = path.join(folder, `${kernel}.spec.yaml`);
  if (fs.existsSync(specPath)) {
    const ok = await vscode.window.showWarningMessage(`${path.basename(specPath)} exists. Overwrite it?`, { modal: true }, 'Overwrite');
    if (ok !== 'Overwrite') return undefined;
  }
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(specPath, specToText(spec));
  output.info(`Spec written to ${specPath}`);
  return { specPath, spec };
}

interface GenerateResult {
  path?: string;
  out?: string;
  source?: string;
  text?: string;
  code?: string;
  correct?: boolean;
  iterations?: number;
  message?: string;
  [key: string]: unknown;
}

async function generateKernel(arg?: unknown): Promise<void> {
  let specPath: string | undefined;
  let inlineSpec: Record<string, unknown> | undefined;
  if (arg instanceof vscode.Uri) {
    specPath = arg.fsPath;
  } else if (typeof arg === 'string') {
    specPath = arg;
  } else {
    const specs = await workspaceSpecs();
    const items: SpecItem[] = [
      ...specs.map((p) => ({ id: 'path' as const, specPath: p, label: `$(file-code) ${path.basename(p)}`, description: vscode.workspace.asRelativePath(p) })),
      { id: 'file', label: '$(folder-opened) Choose a spec file…' },
      { id: 'form', label: '$(edit) Describe a new kernel (short form)…' },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: 'AscendC: Generate Kernel from Spec', placeHolder: 'Pick a kernel spec (YAML) or describe a new kernel', ignoreFocusOut: true });
    if (!pick) return;
    if (pick.id === 'path') {
      specPath = pick.specPath;
    } else if (pick.id === 'file') {
      const uris = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Kernel spec': ['yaml', 'yml', 'json'] }, title: 'Kernel spec' });
      specPath = uris?.[0]?.fsPath;
    } else {
      const made = await specFromForm();
      if (!made) return;
      specPath = made.specPath;
      inlineSpec = made.spec;
    }
  }
  if (!specPath) return;
  let info: { kernel?: string; source?: string } = {};
  try {
    info = peekSpec(fs.readFileSync(specPath, 'utf8'));
  } catch (error) {
    void vscode.window.showErrorMessage(`AscendC: cannot read the spec ${specPath}: ${describeError(error)}`);
    return;
  }
  const kernel = info.kernel ?? path.basename(specPath).replace(/(\.spec)?\.(ya?ml|json)$/i, '');
  let out = path.resolve(path.dirname(specPath), info.source ?? `${kernel}.cpp`);
  if (fs.existsSync(out)) {
    const choice = await vscode.window.showWarningMessage(
      `${path.basename(out)} exists. Replace it with the generated kernel?`,
      { modal: true },
      'Replace',
      'Write Beside',
    );
    if (!choice) return;
    if (choice === 'Write Beside') out = out.replace(/(\.[^.]+)$/, '.generated$1');
  }
  const started = Date.now();
  const result = await executeServerCommand<GenerateResult | string>(
    'ascendc.generateKernel',
    [{ specPath, spec: inlineSpec, out, soc: config().get<string>('soc') }],
    `AscendC: generating ${kernel} with the LLM…`,
  );
  if (result === undefined) return;
  if (result === null) {
    void vscode.window.showWarningMessage('AscendC: the server returned no kernel.');
    return;
  }
  const r: GenerateResult = typeof result === 'string' ? { source: result } : result;
  const text = r.source ?? r.text ?? r.code;
  let target = r.path ?? r.out;
  if (typeof text === 'string' && (!target || !fs.existsSync(target))) {
    target = target ?? out;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (target && fs.existsSync(target)) {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target));
    await vscode.window.showTextDocument(doc, { preview: false });
  }
  const verdict = r.correct === true ? 'verified correct' : r.correct === false ? 'NOT verified correct' : 'generated';
  const iters = typeof r.iterations === 'number' ? ` after ${r.iterations} iteration(s)` : '';
  const message = `AscendC: ${kernel} ${verdict}${iters} in ${seconds} s${target ? ` → ${vscode.workspace.asRelativePath(target)}` : ''}${r.message ? `. ${r.message}` : ''}`;
  if (r.correct === false) void vscode.window.showWarningMessage(message, 'Show Details').then((p) => p && showPanel('generate', `Generate: ${kernel}`, renderRunResult(r, { title: `Generated ${kernel}`, specPath, sourcePath: target })));
  else void vscode.window.showInformationMessage(message);
}

// --- Explain Error Log ------------------------------------------------------------------------

async function explainLog(arg?: unknown): Promise<void> {
  let log: string | undefined;
  let logPath: string | undefined;
  if (arg instanceof vscode.Uri) {
    logPath = arg.fsPath;
  } else {
    const editor = vscode.window.activeTextEditor;
    const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
    type Item = vscode.QuickPickItem & { id: string };
    const items: Item[] = [];
    if (selection.trim()) items.push({ id: 'selection', label: '$(selection) The selected text', description: `${selection.split('\n').length} line(s)` });
    items.push({ id: 'clipboard', label: '$(clippy) The clipboard' });
    items.push({ id: 'file', label: '$(folder-opened) Choose a log file…' });
    items.push({ id: 'type', label: '$(edit) Type or paste one line…' });
    const pick = await vscode.window.showQuickPick(items, { title: 'AscendC: Explain Error Log', placeHolder: 'Which log?' });
    if (!pick) return;
    if (pick.id === 'selection') log = selection;
    else if (pick.id === 'clipboard') {
      // Read only when chosen, and bounded: in a browser (code-server, vscode.dev) it can wait on a permission prompt.
      log = (
        await Promise.race([
          Promise.resolve(vscode.env.clipboard.readText()).catch(() => ''),
          new Promise<string>((resolve) => setTimeout(() => resolve(''), 3000)),
        ])
      ).trim();
      if (!log) void vscode.window.showWarningMessage('AscendC: the clipboard is empty or cannot be read here; choose a log file or select the text in an editor.');
    }
    else if (pick.id === 'type') log = await vscode.window.showInputBox({ title: 'AscendC: Explain Error Log', prompt: 'An error line from the compiler or the runtime (e.g. EZ9999 … errorStr: …)', ignoreFocusOut: true });
    else {
      const uris = await vscode.window.showOpenDialog({ canSelectMany: false, title: 'Log file', filters: { Logs: ['log', 'txt', 'out'], All: ['*'] } });
      logPath = uris?.[0]?.fsPath;
    }
  }
  if (logPath) {
    try {
      log = fs.readFileSync(logPath, 'utf8');
    } catch (error) {
      void vscode.window.showErrorMessage(`AscendC: cannot read ${logPath}: ${describeError(error)}`);
      return;
    }
  }
  if (!log || !log.trim()) return;
  const active = vscode.window.activeTextEditor?.document;
  const source = active && isKernelDocument(active) && active.uri.scheme === 'file' ? active.uri.fsPath : undefined;
  const result = await executeServerCommand<unknown>('ascendc.explainLog', [{ log, path: logPath, source }], 'AscendC: explaining the log…');
  if (result === undefined) return;
  const origin = logPath ?? `${log.split('\n').length} line(s) of log`;
  showPanel('explain', 'AscendC: Explained Log', renderExplain(result, origin));
}

// --- Run Kernel / Timeline --------------------------------------------------------------------

async function pickSpec(sourcePath: string): Promise<string | undefined> {
  const key = `spec:${sourcePath}`;
  const remembered = context.workspaceState.get<string>(key);
  if (remembered && fs.existsSync(remembered)) return remembered;
  const candidates = findSpecsBeside(sourcePath);
  let chosen: string | undefined;
  if (candidates.length === 1 || (candidates.length > 1 && candidates[0].score >= 80 && candidates[1].score < candidates[0].score)) {
    chosen = candidates[0].path;
  } else {
    type Item = vscode.QuickPickItem & { specPath?: string };
    const items: Item[] = candidates.map((c) => ({ label: path.basename(c.path), description: vscode.workspace.asRelativePath(c.path), detail: c.kernel ? `kernel: ${c.kernel}` : undefined, specPath: c.path }));
    items.push({ label: '$(folder-opened) Choose a spec file…' });
    const pick = await vscode.window.showQuickPick(items, {
      title: `AscendC: spec for ${path.basename(sourcePath)}`,
      placeHolder: candidates.length ? 'Which spec describes this kernel?' : 'No spec (YAML with a kernel: key) beside this file',
    });
    if (!pick) return undefined;
    chosen = pick.specPath;
    if (!chosen) {
      const uris = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.file(path.dirname(sourcePath)), filters: { 'Kernel spec': ['yaml', 'yml', 'json'] } });
      chosen = uris?.[0]?.fsPath;
    }
  }
  if (chosen) await context.workspaceState.update(key, chosen);
  return chosen;
}

async function kernelDocument(arg?: unknown): Promise<vscode.TextDocument | undefined> {
  const doc = arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (!doc || doc.uri.scheme !== 'file') {
    void vscode.window.showWarningMessage('AscendC: open a kernel source file (saved on disk) first.');
    return undefined;
  }
  if (doc.isDirty) await doc.save();
  return doc;
}

function readTrace(result: Record<string, unknown>): { data?: unknown; path?: string; problem?: string } {
  const t = result.trace ?? result.trace_path ?? result.tracePath;
  if (t && typeof t === 'object') return { data: t, path: '(inline trace)' };
  if (typeof t !== 'string' || !t) return { problem: 'The server returned no trace path (result key "trace").' };
  try {
    return { data: JSON.parse(fs.readFileSync(t, 'utf8')), path: t };
  } catch (error) {
    return { path: t, problem: `Cannot read the trace ${t}: ${describeError(error)}` };
  }
}

async function runKernel(arg?: unknown, trace = false): Promise<void> {
  const doc = await kernelDocument(arg);
  if (!doc) return;
  const sourcePath = doc.uri.fsPath;
  const specPath = await pickSpec(sourcePath);
  if (!specPath) return;
  const name = path.basename(sourcePath);
  const started = Date.now();
  const result = await executeServerCommand<Record<string, unknown>>(
    'ascendc.runKernel',
    [{ specPath, source: sourcePath, trace, backend: config().get<string>('toolchain.backend'), soc: config().get<string>('soc') }],
    trace ? `AscendC: running ${name} with a pipe trace…` : `AscendC: running ${name} in the emulator…`,
  );
  if (result === undefined) return;
  const seconds = (Date.now() - started) / 1000;
  const r = result && typeof result === 'object' ? result : { result };
  let extra = '';
  if (trace) {
    const t = readTrace(r);
    extra = t.problem ? `<h2>Timeline</h2><p>${esc(t.problem)}</p>` : renderTimeline(parseTrace(t.data), name, t.path ?? '');
  }
  const title = trace ? `Timeline: ${name}` : `Run: ${name}`;
  showPanel(trace ? 'timeline' : 'run', title, renderRunResult(r, { title, specPath, sourcePath, seconds }, extra));
  const verdict = r.correct === true ? 'correct' : r.correct === false ? `not correct (stage: ${r.stage_reached ?? '?'})` : 'finished';
  void vscode.window.setStatusBarMessage(`AscendC: ${name} ${verdict} (${seconds.toFixed(1)} s)`, 6000);
}

// ---------------------------------------------------------------------------------------------

export async function activate(ctx: vscode.ExtensionContext): Promise<{ documentSelector: typeof documentSelector }> {
  context = ctx;
  output = vscode.window.createOutputChannel('AscendC Language Server', { log: true });
  statusItem = vscode.window.createStatusBarItem('ascendc.status', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = 'AscendC';
  ctx.subscriptions.push(output, statusItem);

  const register = (id: string, fn: (...args: unknown[]) => unknown) => ctx.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register('ascendc.generateKernel', (a) => generateKernel(a));
  register('ascendc.explainLog', (a) => explainLog(a));
  register('ascendc.runKernel', (a) => runKernel(a, false));
  register('ascendc.showTimeline', (a) => runKernel(a, true));
  register('ascendc.restartServer', () => restartServer());
  register('ascendc.showOutput', () => output.show(true));
  register('ascendc.selectSoc', () => selectSoc());

  ctx.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => updateStatus()),
    vscode.workspace.onDidCloseTextDocument((doc) => statuses.delete(doc.uri.toString())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('ascendc.server') || e.affectsConfiguration('ascendc.attachToCpp')) {
        output.info('Server settings changed: restarting');
        void restartServer();
      } else if (e.affectsConfiguration('ascendc')) {
        if (e.affectsConfiguration('ascendc.soc')) {
          statuses.clear();
          updateStatus();
        }
        void pushSettings();
      }
    }),
    { dispose: () => void stopClient() },
  );
  output.info(`AscendC extension ${ctx.extension.packageJSON.version} activating`);
  updateStatus();
  await ensureClient();
  return { documentSelector };
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
