// Bundles the extension (dist/extension.js, the only code shipped in the .vsix) and compiles the
// vscode-free helper modules to out/ so `node --test` can unit-test them without VS Code.
import { build } from 'esbuild';

const t0 = Date.now();
await build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  minify: true,
  sourcemap: false,
  outfile: 'dist/extension.js',
  logLevel: 'warning',
});
await build({
  entryPoints: ['src/timeline.ts', 'src/render.ts', 'src/specs.ts', 'src/status.ts', 'src/errors.ts', 'src/python.ts', 'src/kernelfiles.ts', 'src/protocol.ts'],
  bundle: false,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outdir: 'out',
  logLevel: 'warning',
});
console.log(`esbuild: dist/extension.js + out/ in ${Date.now() - t0} ms`);
