// Pure: which Python starts the language server.

export type InterpreterSource = 'setting' | 'python-extension' | 'default';

export interface Interpreter {
  command: string;
  source: InterpreterSource;
}

export const DEFAULT_INTERPRETER = 'python3';

/** `vtlint.interpreter`, else the Python extension's active environment, else python3.
 * `${workspaceFolder}` and a leading `~` in the setting are expanded. Until the workspace
 * is trusted, nothing it can choose is run: not the Python extension's environment (often
 * the workspace's own .venv), nor a setting that points into the workspace folder. */
export function chooseInterpreter(
  setting: string | undefined,
  pythonExtension: string | undefined,
  vars: { workspaceFolder?: string; home?: string } = {},
  trusted = true,
): Interpreter {
  const configured = (setting ?? '').trim();
  if (configured && (trusted || !configured.includes('${workspaceFolder}'))) {
    let command = configured.replace(/\$\{workspaceFolder\}/g, vars.workspaceFolder ?? '.');
    if (vars.home && (command === '~' || command.startsWith('~/'))) {
      command = vars.home + command.slice(1);
    }
    return { command, source: 'setting' };
  }
  if (trusted && pythonExtension && pythonExtension.trim()) {
    return { command: pythonExtension.trim(), source: 'python-extension' };
  }
  return { command: DEFAULT_INTERPRETER, source: 'default' };
}

/** The server command line for an interpreter (the client adds `--stdio`). `-I` keeps the
 * working directory off the import path (`-m` would put it first, so a workspace holding
 * `vtlint/__main__.py` would run); the server is also started in a neutral folder. */
export function serverArgs(): string[] {
  return ['-I', '-m', 'vtlint', 'lsp'];
}

/** The probe that tells whether vtlint is importable by the interpreter, isolated as the server is. */
export function probeArgs(): string[] {
  return ['-I', '-c', 'import vtlint.lsp.server'];
}

/**
 * Installing vtlint: it is not on the package index, so `make vsix` bundles the wheel
 * `make dist` builds (dist/python/vtlint-*.whl in the extension); without one there is
 * nothing to install from.
 */
export function installArgs(wheel: string | undefined): string[] | undefined {
  return wheel ? ['-I', '-m', 'pip', 'install', '--upgrade', wheel] : undefined;
}

/** The bundled wheel among the names in the extension's dist/python folder, if any. */
export function bundledWheel(folder: string, names: string[]): string | undefined {
  const wheel = names.filter((n) => /^vtlint-.*\.whl$/.test(n)).sort().pop();
  return wheel ? `${folder}/${wheel}` : undefined;
}

/** What an untrusted workspace asked for and did not get, as the user is told it: the
 * server runs with `chosen`, static pass only, until the workspace is trusted. */
export function restrictedNote(chosen: Interpreter, skipped: string[]): string {
  const list = skipped.join(' and ');
  const not = skipped.length
    ? ` ${list.charAt(0).toUpperCase()}${list.slice(1)} ${skipped.length > 1 ? 'are' : 'is'} not used until you trust it.`
    : '';
  return (
    `vtlint: this workspace is not trusted (Restricted Mode), so vtlint runs only its static pass, ` +
    `which never executes the workspace's code, with ${chosen.command} (${chosen.source}).${not}`
  );
}

/** The interpreters an untrusted workspace chose that `chooseInterpreter` passed over:
 * its own `vtlint.interpreter` (a workspace or folder setting, which VS Code withholds in
 * Restricted Mode), a setting under `${workspaceFolder}`, the Python extension's environment. */
export function skippedInterpreters(
  workspaceSetting: string | undefined,
  setting: string | undefined,
  pythonExtension: string | undefined,
  chosen: Interpreter,
): string[] {
  const skipped: string[] = [];
  const own = (workspaceSetting ?? '').trim();
  if (own && !(chosen.source === 'setting' && (setting ?? '').trim() === own)) {
    skipped.push(`the workspace's vtlint.interpreter (${own})`);
  }
  const configured = (setting ?? '').trim();
  if (configured && configured !== own && chosen.source !== 'setting') {
    skipped.push(`vtlint.interpreter (${configured}, inside the workspace)`);
  }
  const env = (pythonExtension ?? '').trim();
  if (env && chosen.command !== env) {
    skipped.push(`the Python extension's environment (${env})`);
  }
  return skipped;
}

/** `vtlint.interpreter` as a workspace's settings file sets it (`.vscode/settings.json`, JSON
 * with comments; or a `.code-workspace` file's `settings`). In Restricted Mode VS Code
 * withholds it from the API, so that the user can be told what is not used. */
export function interpreterInSettings(text: string): string | undefined {
  let json = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      const literal = end ? end[0] : text.slice(i);
      json += literal;
      i += literal.length - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      json += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    } else {
      json += c;
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
  const settings = (parsed as { settings?: unknown; folders?: unknown })?.folders !== undefined
    ? (parsed as { settings?: unknown }).settings
    : parsed;
  const value = (settings as Record<string, unknown> | undefined)?.['vtlint.interpreter'];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
