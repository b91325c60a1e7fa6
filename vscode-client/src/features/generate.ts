// "AscendC: Generate Kernel from Spec": a spec picked in the workspace, chosen as a file or described in a short
// form; the server's checked LLM loop (generateKernel) writes the kernel, which is then opened.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AscendcContext, workspaceDirs } from '../context';
import { describeError } from '../errors';
import { ServerCommands } from '../protocol';
import { renderMessage } from '../render';
import { buildSpec, DTYPES, parseNames, parseShape, peekSpec, specToText, validateKernelName, validateNames } from '../specs';

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

async function specFromForm(ctx: AscendcContext): Promise<{ specPath: string; spec: Record<string, unknown> } | undefined> {
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
  const spec = buildSpec({ kernel, description, inputs, outputs, shape: parseShape(shapeText)!, dtype, reference, soc: ctx.settings().soc });
  const folder = workspaceDirs()[0] ?? path.join(process.env.HOME ?? '/tmp', 'ascendc-kernels');
  const specPath = path.join(folder, `${kernel}.spec.yaml`);
  if (fs.existsSync(specPath)) {
    const ok = await vscode.window.showWarningMessage(`${path.basename(specPath)} exists. Overwrite it?`, { modal: true }, 'Overwrite');
    if (ok !== 'Overwrite') return undefined;
  }
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(specPath, specToText(spec));
  ctx.output.info(`Spec written to ${specPath}`);
  return { specPath, spec };
}

async function generateKernel(ctx: AscendcContext, arg?: unknown): Promise<void> {
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
      const made = await specFromForm(ctx);
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
  const result = await ctx.execute(
    ServerCommands.generateKernel,
    { specPath, spec: inlineSpec, out, soc: ctx.settings().soc },
    `AscendC: generating ${kernel} with the LLM…`,
  );
  if (result === undefined) return;
  const target = result.kernel ?? undefined;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (target && fs.existsSync(target)) {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target));
    await vscode.window.showTextDocument(doc, { preview: false });
  }
  const verdict = result.correct ? 'verified correct' : 'NOT verified correct';
  const where = target ? ` → ${vscode.workspace.asRelativePath(target)}` : result.bestAttempt ? ` (best attempt: ${result.bestAttempt})` : '';
  const message = `AscendC: ${kernel} ${verdict} after ${result.iterations} iteration(s) in ${seconds} s${where}. ${result.message}`;
  if (!result.correct) {
    void vscode.window.showWarningMessage(message, 'Show Details').then((p) => p && ctx.showPanel('generate', `Generate: ${kernel}`, renderMessage(`Generated ${kernel}`, message, result)));
  } else void vscode.window.showInformationMessage(message);
}

export function registerGenerate(ctx: AscendcContext): void {
  ctx.register('ascendc.generateKernel', (a) => generateKernel(ctx, a));
}
