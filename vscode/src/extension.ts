import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  CloseAction,
  DynamicFeature,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  StaticFeature,
  TransportKind,
} from 'vscode-languageclient/node';
import { CrashPolicy } from './crash';
import {
  bundledWheel,
  chooseInterpreter,
  installArgs,
  Interpreter,
  interpreterInSettings,
  probeArgs,
  restrictedNote,
  serverArgs,
  skippedInterpreters,
} from './interpreter';
import { RestartQueue } from './restart';
import { runtimeAllowed, serverSettings } from './settings';

const CONFIRM = 'vtlint.confirmAtRuntime';
const STATUS = 'vtlint.serverStatus';
/** The server's commands (its executeCommandProvider), registered by the extension itself. */
export const SERVER_COMMANDS = [CONFIRM, STATUS];

/**
 * The language client without its own registration of the server's commands: that
 * feature registers them anew at every start, and a second client alive at the same
 * moment failed with "command 'vtlint.confirmAtRuntime' already exists". The extension
 * registers them once per activation instead and sends them to whichever client runs.
 */
class VtlintClient extends LanguageClient {
  registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    if ((feature as Partial<DynamicFeature<unknown>>).registrationType?.method === ExecuteCommandRequest.method) {
      return;
    }
    super.registerFeature(feature);
  }
}

let output: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let lastRuntime = 'no runtime run yet';
let interpreter: Interpreter | undefined;
let restricted: string | undefined; // what the status tooltip says of Restricted Mode
let toldRestricted = false; // the Restricted Mode notice is shown once per activation
let offering = false; // an install offer is on screen
let extensionPath = '';
let newest: LanguageClient | undefined; // the client the status bar follows
const crashes = new CrashPolicy();
const clients = new RestartQueue<LanguageClient>({
  start: startClient,
  stop: stopClient,
  failed: (error) => output.appendLine(`vtlint: ${error}`),
});

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
      (vscode.workspace.isTrusted ? '' : `\n\n${restricted ?? 'Untrusted workspace: only the static pass runs, never a harness.'}`),
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

/** The `vtlint.interpreter` the workspace's own settings file sets, read as text (VS Code
 * withholds it from the API in Restricted Mode; reading it runs nothing). */
function workspaceInterpreter(): string | undefined {
  const inspected = vscode.workspace.getConfiguration('vtlint').inspect<string>('interpreter');
  const files = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => path.join(f.uri.fsPath, '.vscode', 'settings.json'));
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') {
    files.unshift(workspaceFile.fsPath);
  }
  for (const file of files) {
    try {
      const stat = fs.statSync(file);
      const value = stat.isFile() && stat.size < 1 << 20 ? interpreterInSettings(fs.readFileSync(file, 'utf8')) : undefined;
      if (value) {
        return value;
      }
    } catch {
      // no settings file
    }
  }
  return inspected?.workspaceFolderValue || inspected?.workspaceValue;
}

/** Tell the user, once, why an untrusted workspace's interpreter is not used. */
function tellRestricted(chosen: Interpreter, skipped: string[]): void {
  restricted = restrictedNote(chosen, skipped);
  output.appendLine(restricted);
  if (toldRestricted || !skipped.length) {
    return;
  }
  toldRestricted = true;
  void vscode.window.showInformationMessage(restricted, 'Manage Workspace Trust').then((choice) => {
    if (choice) {
      void vscode.commands.executeCommand('workbench.trust.manage');
    }
  });
}

/** Offer the bundled wheel (not awaited by the restart: the offer may stay on screen);
 * once it is installed, the server is restarted. */
function offerInstallThenRestart(python: string): void {
  if (offering) {
    return;
  }
  offering = true;
  void offerInstall(python)
    .then((installed) => (installed ? restart() : undefined))
    .finally(() => {
      offering = false;
    });
}

/** One start of the client, run by the restart queue only (never two at once). */
async function startClient(stale: () => boolean): Promise<LanguageClient | undefined> {
  const settings = readSettings();
  if (!settings.enable) {
    setStatus('stopped');
    return undefined;
  }
  setStatus('starting');
  const trusted = vscode.workspace.isTrusted;
  const cfg = vscode.workspace.getConfiguration('vtlint');
  const setting = cfg.get<string>('interpreter');
  const fromPython = await pythonExtensionInterpreter();
  interpreter = chooseInterpreter(
    setting,
    trusted ? fromPython : undefined,
    { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, home: os.homedir() },
    trusted,
  );
  restricted = undefined;
  if (!trusted) {
    tellRestricted(interpreter, skippedInterpreters(workspaceInterpreter(), setting, fromPython, interpreter));
  }
  output.appendLine(`vtlint: starting the server with ${interpreter.command} (${interpreter.source})`);
  if (!(await probe(interpreter.command))) {
    setStatus('failed');
    offerInstallThenRestart(interpreter.command);
    return undefined;
  }
  if (stale()) {
    return undefined; // a newer restart is waiting: it starts the client
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
  };
  const client = new VtlintClient('vtlint', 'vtlint', serverOptions, clientOptions);
  newest = client;
  client.onDidChangeState((e) => {
    if (client !== newest) {
      return; // a client a restart has replaced: its state no longer shows
    }
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
    await client.dispose().catch(() => undefined);
    return undefined;
  }
  return client;
}

async function stopClient(client: LanguageClient): Promise<void> {
  try {
    await client.dispose();
  } catch (error) {
    output.appendLine(`vtlint: stopping the server: ${error}`);
  }
}

/** Every restart goes through the queue: one client at a time, the last request wins. */
function restart(): Promise<void> {
  crashes.reset();
  return clients.restart();
}

/** A server command (its executeCommandProvider), sent to the running client. Running the
 * harness (`vtlint.confirmAtRuntime`) needs a trusted workspace. */
async function serverCommand(command: string, args: unknown[]): Promise<unknown> {
  if (command === CONFIRM) {
    const allowed = runtimeAllowed(vscode.workspace.isTrusted);
    if (!allowed.ok) {
      void vscode.window.showWarningMessage(allowed.reason ?? '');
      return undefined;
    }
  }
  await clients.idle(); // a restart under way: the command goes to the client it starts
  const client = clients.client;
  if (!client || !client.isRunning()) {
    void vscode.window.showWarningMessage('vtlint: the server is not running. See "vtlint: Show output", then run "vtlint: Restart server".');
    return undefined;
  }
  const send = (a: unknown[]) => client.sendRequest(ExecuteCommandRequest.type, { command, arguments: a });
  if (command !== CONFIRM) {
    return send(args);
  }
  const uri = vscode.window.activeTextEditor?.document.uri.toString();
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'vtlint: running the harness' },
      () => send(args.length ? args : uri ? [uri] : []),
    );
    lastRuntime = `${new Date().toLocaleTimeString()}: ${(result as { text?: string } | undefined)?.text ?? 'no answer'}`;
    setStatus('running');
    return result;
  } catch (error) {
    void vscode.window.showErrorMessage(`vtlint: runtime confirmation failed: ${error}`);
    return undefined;
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel('vtlint');
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  status.command = 'vtlint.showOutput';
  // Every command once per activation: restarts create new clients, never new commands.
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand('vtlint.restart', restart),
    vscode.commands.registerCommand('vtlint.showOutput', () => output.show(true)),
    ...SERVER_COMMANDS.map((command) =>
      vscode.commands.registerCommand(command, (...args: unknown[]) => serverCommand(command, args)),
    ),
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
  await restart();
}

export async function deactivate(): Promise<void> {
  await clients.close();
}
