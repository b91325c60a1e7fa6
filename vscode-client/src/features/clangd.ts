// "AscendC: Configure clangd": writes the workspace's `.clangd` (server command clangdConfig) so clangd, running
// beside our server, understands AscendC kernels: CANN's headers when a toolkit is found, else the emulator's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AscendcContext, workspaceDirs } from '../context';
import { describeError } from '../errors';
import { ServerCommands } from '../protocol';

/** First line of a `.clangd` this command wrote (overwritten without asking). */
export const OUR_MARK = '# Written by "AscendC: Configure clangd" (ascendc-lsp)';

async function configure(ctx: AscendcContext): Promise<void> {
  const folders = workspaceDirs();
  let folder = folders[0];
  if (folders.length > 1) {
    const pick = await vscode.window.showQuickPick(folders, { title: 'AscendC: Configure clangd', placeHolder: 'Which workspace folder?' });
    if (!pick) return;
    folder = pick;
  }
  if (!folder) {
    void vscode.window.showWarningMessage('AscendC: open a folder first; .clangd is written at its root.');
    return;
  }
  const result = await ctx.execute(ServerCommands.clangdConfig, { folder, soc: ctx.settings().soc }, 'AscendC: configuring clangd…');
  if (result === undefined) return;
  const target = path.join(folder, '.clangd');
  if (fs.existsSync(target) && !fs.readFileSync(target, 'utf8').startsWith(OUR_MARK)) {
    const choice = await vscode.window.showWarningMessage(`${target} exists and was not written by AscendC. Replace it?`, { modal: true }, 'Replace');
    if (choice !== 'Replace') return;
  }
  try {
    fs.writeFileSync(target, result.text);
  } catch (error) {
    void vscode.window.showErrorMessage(`AscendC: cannot write ${target}: ${describeError(error)}`);
    return;
  }
  ctx.output.info(`Wrote ${target} (${result.substrate}): ${result.flags.join(' ')}`);
  const commands = await vscode.commands.getCommands(true);
  const restart = commands.includes('clangd.restart') ? ['Restart clangd'] : [];
  const pick = await vscode.window.showInformationMessage(`AscendC: wrote .clangd — ${result.note}.`, ...restart, 'Open .clangd');
  if (pick === 'Restart clangd') await vscode.commands.executeCommand('clangd.restart');
  else if (pick === 'Open .clangd') await vscode.window.showTextDocument(vscode.Uri.file(target));
}

export function registerClangd(ctx: AscendcContext): void {
  ctx.register('ascendc.configureClangd', () => configure(ctx));
}
