// Which C++ documents are AscendC kernels. The extension attaches beside clangd / the C/C++ extension: kernel
// files stay language `cpp` (`.asc` too, as the devkit's `.clangd` with `-x c++` treats them), and our server
// only hears about the ones this module accepts. No vscode import: unit-tested in Node.

/** Glob patterns of kernel files by path: op project kernels and direct-launch `.asc` sources. */
export const KERNEL_PATTERNS = ['**/op_kernel/**/*.{cpp,cc,cxx,h,hpp}', '**/*.asc'];

/** How much of a document is read to decide by content. */
export const SNIFF_CHARS = 64 * 1024;

const KERNEL_MARKERS = /__aicore__|__global__\s+__vector__|__global__\s+__cube__|kernel_operator\.h|__gm__/;

export function isKernelPath(fsPath: string): boolean {
  const p = fsPath.replace(/\\/g, '/');
  return /\.asc$/i.test(p) || /(^|\/)op_kernel\/.+\.(cpp|cc|cxx|h|hpp)$/i.test(p);
}

export function looksLikeKernel(text: string): boolean {
  return KERNEL_MARKERS.test(text.length > SNIFF_CHARS ? text.slice(0, SNIFF_CHARS) : text);
}

/** A document our server should see: a kernel by path, or a C++ file whose text uses AscendC. */
export function isKernelFile(fsPath: string, text: string): boolean {
  return isKernelPath(fsPath) || looksLikeKernel(text);
}
