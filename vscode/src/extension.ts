import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { CrashPolicy } from './crash';
import { bundledWheel, chooseInterpreter, installArgs, Interpreter, probeArgs, serverArgs } from './interpreter';
import { runtimeAllowed, serverSettings } from './settings';

const CONFIRM = 'vtlint.confirmAtRuntime';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let lastRuntime = 'no runtime run yet';
let interpreter: Interpreter | undefined;
let extensionPath = '';
const crashes = new CrashPolicy();

interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
    resolveEnvironment(env: { path: string }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonApi>('ms-python.python');
  if (!ext) {
    return undefined;
  }
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return undefined;
  }
}

async function pythonExtensionInterpreter(): Promise<string | undefined> {
  const envs = (await pythonApi())?.environments;
  if (!envs) {
    return undefined;
  }
  const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
  const resolved = await envs.resolveEnvironment(envs.getActiveEnvironmentPath(resource));
  return resolved?.executable.uri?.fsPath;
}

function setStatus(state: 'starting' | 'running' | 'stopped' | 'failed'): void {
  const icon = { starting: '$(sync~spin)', running: '$(check)', stopped: '$(circle-slash)', failed: '$(error)' }[state];
  const trust = vscode.workspace.isTrusted ? '' : ' (static only)';
  status.text = `${icon} vtlint${trust}`;
  const md = new vscode.MarkdownString(
    `**vtlint** — server ${state}\n\n` +
      `Interpreter: \`${interpreter?.command ?? '?'}\` (${interpreter?.source ?? '?'})\n\n` +
      `Runtime: ${lastRuntime}` +
      (vscode.workspace.isTrusted ? '' : '\n\nUntrusted workspace: only the static pass runs, never a harness.'),
  );
  status.tooltip = md;
  status.show();
}

/** Where Python runs: the extension's own folder, never the workspace or the editor's
 * working directory (either may hold a `vtlint/` package of someone else's). */
function neutralCwd(): string {
  return extensionPath;
}

function probe(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, probeArgs(), { timeout: 30000, cwd: neutralCwd() }, (error) => resolve(!error));
  });
}

function wheelArgs(): string[] | undefined {
  const folder = path.join(extensionPath, 'dist', 'python');
  let names: string[] = [];
  try {
    names = fs.readdirSync(folder);
  } catch {
    names = [];
  }
  return installArgs(bundledWheel(folder, names));
}

async function offerInstall(python: string): Promise<boolean> {
  const args = wheelArgs();
  const how = args
    ? 'Install the vtlint bundled with this extension, or choose an interpreter that has it.'
    : 'Install it from a vtlint clone (`python -m pip install /path/to/vtlint`) or choose an interpreter that has it.';
  const choice = await vscode.window.showWarningMessage(
    `vtlint is not installed for ${python}. ${how}`,
    ...(args ? ['Install vtlint'] : []),
    'Choose interpreter',
  );
  if (choice === 'Choose interpreter') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'vtlint.interpreter');
    return false;
  }
  if (choice !== 'Install vtlint' || !args) {
    return false;
  }
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Installing vtlint into ${python}` },
    () =>
      new Promise<boolean>((resolve) => {
        execFile(python, args, { timeout: 600000, cwd: neutralCwd() }, (error, stdout, stderr) => {
          output.appendLine(stdout + stderr);
          if (error) {
            void vscode.window.showErrorMessage(`Installing vtlint failed: ${error.message}`);
          }
          resolve(!error);
        });
      }),
  );
}

function readSettings() {
  const cfg = vscode.workspace.getConfiguration('vtlint');
  return serverSettings(
    {
      enable: cfg.get<boolean>('enable'),
      select: cfg.get<string[]>('select'),
      ignore: cfg.get<string[]>('ignore'),
      runtimeCommand: cfg.get<string>('runtime.command'),
      runtimeOnSave: cfg.get<boolean>('runtime.onSave'),
    },
    vscode.workspace.isTrusted,
  );
}

async function start(): Promise<void> {
  const settings = readSettings();
  if (!settings.enable) {
    setStatus('stopped');
    return;
  }
  setStatus('starting');
  const trusted = vscode.workspace.isTrusted;
  interpreter = chooseInterpreter(
    vscode.workspace.getConfiguration('vtlint').get<string>('interpreter'),
    trusted ? await pythonExtensionInterpreter() : undefined,
    { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, home: os.homedir() },
    trusted,
  );
  output.appendLine(`vtlint: starting the server with ${interpreter.command} (${interpreter.source})`);
  if (!(await probe(interpreter.command))) {
    if (!(await offerInstall(interpreter.command)) || !(await probe(interpreter.command))) {
      setStatus('failed');
      return;
    }
  }
  const serverOptions: ServerOptions = {
    command: interpreter.command,
    args: serverArgs(),
    options: { cwd: neutralCwd() },
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'python' }],
    outputChannel: output,
    initializationOptions: { settings },
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/{pyproject.toml,*.py}') },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        if (crashes.shouldRestart(Date.now())) {
          output.appendLine('vtlint: the server stopped; restarting it');
          return { action: CloseAction.Restart };
        }
        setStatus('failed');
        return { action: CloseAction.DoNotRestart, message: crashes.message() };
      },
    },
    middleware: {
      executeCommand: async (command, args, next) => {
        if (command !== CONFIRM) {
          return next(command, args);
        }
        const allowed = runtimeAllowed(vscode.workspace.isTrusted);
        if (!allowed.ok) {
          void vscode.window.showWarningMessage(allowed.reason ?? '');
          return undefined;
        }
        const uri = vscode.window.activeTextEditor?.document.uri.toString();
        const result = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: 'vtlint: running the harness' },
          () => next(command, args.length ? args : uri ? [uri] : []),
        );
        lastRuntime = `${new Date().toLocaleTimeString()}: ${(result as { text?: string } | undefined)?.text ?? 'no answer'}`;
        setStatus('running');
        return result;
      },
    },
  };
  client = new LanguageClient('vtlint', 'vtlint', serverOptions, clientOptions);
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      setStatus('running');
    } else if (e.newState === State.Stopped) {
      setStatus('stopped');
    }
  });
  try {
    await client.start();
  } catch (error) {
    output.appendLine(`vtlint: the server did not start: ${error}`);
    setStatus('failed');
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch (error) {
      output.appendLine(`vtlint: stopping the server: ${error}`);
    }
  }
}

async function restart(): Promise<void> {
  crashes.reset();
  await stop();
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel('vtlint');
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  status.command = 'vtlint.showOutput';
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('vtlint.restart', restart),
    vscode.commands.registerCommand('vtlint.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('vtlint')) {
        void restart();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
  );
  const envs = (await pythonApi())?.environments;
  if (envs) {
    context.subscriptions.push(
      envs.onDidChangeActiveEnvironmentPath(() => {
        if (interpreter?.source !== 'setting') {
          void restart();
        }
      }),
    );
  }
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
