// Status bar text for the `ascendc/status` notification. No vscode import: unit-tested in Node.

export interface KernelStatus {
  uri?: string;
  soc?: string;
  ubUsedBytes?: number | null;
  /** Usable UB: the SoC's UB less the reserve (hardware/limits.py), the number the lens and the checks use. */
  ubCapacityBytes?: number | null;
  ubTotalBytes?: number | null;
  ubReservedBytes?: number | null;
}

export function formatKb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

/** "Ascend910B · UB 64.0/192.0 KB"; just the SoC when the UB use is unknown. */
export function formatStatus(soc: string, status?: KernelStatus): string {
  const name = status?.soc || soc;
  const used = status?.ubUsedBytes;
  const cap = status?.ubCapacityBytes;
  if (typeof used === 'number' && typeof cap === 'number' && cap > 0) {
    return `${name} · UB ${formatKb(used)}/${formatKb(cap)} KB`;
  }
  if (typeof used === 'number') {
    return `${name} · UB ${formatKb(used)} KB`;
  }
  return name;
}

export function isOverCapacity(status?: KernelStatus): boolean {
  const used = status?.ubUsedBytes;
  const cap = status?.ubCapacityBytes;
  return typeof used === 'number' && typeof cap === 'number' && cap > 0 && used > cap;
}

export function statusTooltip(soc: string, status?: KernelStatus): string {
  const name = status?.soc || soc;
  const lines = [`AscendC: SoC profile ${name} (click to change)`];
  const used = status?.ubUsedBytes;
  const cap = status?.ubCapacityBytes;
  if (typeof used === 'number' && typeof cap === 'number' && cap > 0) {
    const pct = ((100 * used) / cap).toFixed(0);
    lines.push(`Unified Buffer: ${used} of ${cap} usable bytes (${pct} %) allocated by this kernel's InitBuffer calls`);
    const total = status?.ubTotalBytes;
    const reserved = status?.ubReservedBytes;
    if (typeof total === 'number' && typeof reserved === 'number' && reserved > 0) {
      lines.push(`Usable = ${total} bytes of UB less ${reserved} bytes the toolchain reserves on ${name}`);
    }
    if (used > cap) {
      lines.push(`Over capacity by ${used - cap} bytes: the kernel will fail at run time.`);
    }
  } else {
    lines.push('Unified Buffer use: not known yet for this file');
  }
  return lines.join('\n');
}
