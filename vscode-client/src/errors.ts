// Classifying errors that come back from `workspace/executeCommand`. No vscode import.

/** JSON-RPC error codes that matter here. */
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const REQUEST_CANCELLED = -32800;
export const SERVER_CANCELLED = -32802;

export interface RpcErrorLike {
  code?: number;
  message?: string;
}

/**
 * True when the server says it has no such command. pygls 2 answers an unknown command with
 * InvalidParams "Command name 'x' is not defined"; other servers use MethodNotFound or
 * "command not found" / "unknown command".
 */
export function isCommandNotFound(error: unknown, command?: string): boolean {
  const e = (error ?? {}) as RpcErrorLike;
  const message = String(e.message ?? error ?? '');
  if (e.code === METHOD_NOT_FOUND) {
    return true;
  }
  if (/is not defined|command not found|unknown command|no such command|not registered|unhandled method/i.test(message)) {
    return command === undefined || message.includes(command) || !/argument|parameter/i.test(message);
  }
  return false;
}

export function isCancelled(error: unknown): boolean {
  const e = (error ?? {}) as RpcErrorLike;
  return e.code === REQUEST_CANCELLED || e.code === SERVER_CANCELLED || /cancel/i.test(String(e.message ?? ''));
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  const e = (error ?? {}) as RpcErrorLike;
  if (e.message) {
    return e.code !== undefined ? `${e.message} (code ${e.code})` : e.message;
  }
  return String(error);
}
