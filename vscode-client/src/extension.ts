// AscendC VS Code client: a small context (context.ts: the language client, typed server commands, webviews)
// and one module per feature under features/. The server runs as `python -m ascendc_lsp serve --stdio` beside
// clangd / the C/C++ extension: kernel files stay C++, and only kernels reach our server.
import * as vscode from 'vscode';
import { AscendcContext, documentSelector } from './context';
import { registerClangd } from './features/clangd';
import { registerExplain } from './features/explain';
import { registerGenerate } from './features/generate';
import { registerRun } from './features/run';
import { registerStatusBar } from './features/statusBar';

let current: AscendcContext | undefined;

export async function activate(extension: vscode.ExtensionContext): Promise<{ documentSelector: typeof documentSelector }> {
  const ctx = new AscendcContext(extension);
  current = ctx;
  registerStatusBar(ctx);
  registerRun(ctx);
  registerExplain(ctx);
  registerGenerate(ctx);
  registerClangd(ctx);
  ctx.register('ascendc.restartServer', () => ctx.restart());
  ctx.register('ascendc.showOutput', () => ctx.output.show(true));
  extension.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('ascendc.server') || e.affectsConfiguration('ascendc.attachToCpp')) {
        ctx.output.info('Server settings changed: restarting');
        void ctx.restart();
      } else if (e.affectsConfiguration('ascendc')) {
        void ctx.pushSettings();
      }
    }),
  );
  ctx.output.info(`AscendC extension ${extension.extension.packageJSON.version} activating`);
  await ctx.ensureClient();
  return { documentSelector };
}

export async function deactivate(): Promise<void> {
  await current?.stop();
  current = undefined;
}
