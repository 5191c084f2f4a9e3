// Pure: which Python starts the language server.

export type InterpreterSource = 'setting' | 'python-extension' | 'default';

export interface Interpreter {
  command: string;
  source: InterpreterSource;
}

export const DEFAULT_INTERPRETER = 'python3';

/** `vtlint.interpreter`, else the Python extension's active environment, else python3.
 * `${workspaceFolder}` and a leading `~` in the setting are expanded. */
export function chooseInterpreter(
  setting: string | undefined,
  pythonExtension: string | undefined,
  vars: { workspaceFolder?: string; home?: string } = {},
): Interpreter {
  const configured = (setting ?? '').trim();
  if (configured) {
    let command = configured.replace(/\$\{workspaceFolder\}/g, vars.workspaceFolder ?? '.');
    if (vars.home && (command === '~' || command.startsWith('~/'))) {
      command = vars.home + command.slice(1);
    }
    return { command, source: 'setting' };
  }
  if (pythonExtension && pythonExtension.trim()) {
    return { command: pythonExtension.trim(), source: 'python-extension' };
  }
  return { command: DEFAULT_INTERPRETER, source: 'default' };
}

/** The server command line for an interpreter (the client adds `--stdio`). */
export function serverArgs(): string[] {
  return ['-m', 'vtlint', 'lsp'];
}

/** The probe that tells whether vtlint is importable by the interpreter. */
export function probeArgs(): string[] {
  return ['-c', 'import vtlint.lsp.server'];
}

export function installArgs(): string[] {
  return ['-m', 'pip', 'install', '--upgrade', 'vtlint'];
}
