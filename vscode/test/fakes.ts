// Stand-ins for `vscode`, `vscode-languageclient/node` and the extension's
// `child_process`, so that mocha can activate the extension outside the editor. They
// behave as the real ones do where the tests look: registering a command id twice throws
// "command '...' already exists", and the language client's own ExecuteCommandFeature
// registers the server's commands when a client starts (unless the extension left it out).
import Module = require('module');
import * as path from 'path';

/** A seeded generator (mulberry32): the same delays, hence the same interleavings, each run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Listener = (e?: unknown) => unknown;
const SERVER_COMMANDS = ['vtlint.confirmAtRuntime', 'vtlint.serverStatus']; // what the server advertises

export class World {
  readonly random: () => number;
  // vscode
  trusted = true;
  settings: Record<string, unknown> = { interpreter: '/user/bin/python', enable: true, select: [], ignore: [] };
  workspaceSettings: Record<string, unknown> = {}; // .vscode/settings.json (withheld while untrusted)
  pythonEnv: string | undefined = '/ws/.venv/bin/python';
  commands = new Map<string, (...args: unknown[]) => unknown>();
  registerCalls: string[] = [];
  messages: { kind: 'error' | 'warning' | 'info'; text: string }[] = [];
  output: string[] = [];
  status = { text: '', tooltip: undefined as unknown, command: '', show() {}, dispose() {} };
  configListeners: Listener[] = [];
  trustListeners: Listener[] = [];
  envListeners: Listener[] = [];
  // the language client
  clients: FakeClient[] = [];
  overlaps: string[] = []; // a client started or stopped while another was starting or running
  probes = 0;

  constructor(seed = 1) {
    this.random = seeded(seed);
  }

  delay(maxMs = 4): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.floor(this.random() * maxMs)));
  }

  /** Clients starting, running or stopping right now. */
  alive(): FakeClient[] {
    return this.clients.filter((c) => c.state !== 'initial' && c.state !== 'stopped');
  }

  fire(listeners: Listener[], e?: unknown): void {
    listeners.forEach((l) => l(e));
  }

  changeSettings(values: Record<string, unknown>): void {
    Object.assign(this.settings, values);
    this.fire(this.configListeners, { affectsConfiguration: (section: string) => section === 'vtlint' });
  }

  grantTrust(): void {
    this.trusted = true;
    this.fire(this.trustListeners);
  }

  errors(): string[] {
    return this.messages.filter((m) => m.kind === 'error').map((m) => m.text);
  }

  vscode(): unknown {
    const world = this;
    const disposable = (remove: () => void) => ({ dispose: remove });
    const listen = (list: Listener[]) => (l: Listener) => {
      list.push(l);
      return disposable(() => list.splice(list.indexOf(l), 1));
    };
    const message = (kind: 'error' | 'warning' | 'info') => (text: string) => {
      world.messages.push({ kind, text });
      return Promise.resolve(undefined);
    };
    return {
      StatusBarAlignment: { Left: 1, Right: 2 },
      ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
      MarkdownString: class {
        constructor(readonly value: string) {}
      },
      window: {
        createOutputChannel: () => ({ appendLine: (l: string) => world.output.push(l), show() {}, dispose() {} }),
        createStatusBarItem: () => world.status,
        showErrorMessage: message('error'),
        showWarningMessage: message('warning'),
        showInformationMessage: message('info'),
        withProgress: (_: unknown, task: () => unknown) => task(),
        activeTextEditor: undefined,
      },
      workspace: {
        get isTrusted() {
          return world.trusted;
        },
        workspaceFolders: [{ uri: { fsPath: '/ws', scheme: 'file' } }],
        getConfiguration: (section: string) => {
          const key = (k: string) => (section ? `${section}.${k}` : k).replace(/^vtlint\./, '');
          const effective = (k: string) =>
            world.trusted && key(k) in world.workspaceSettings ? world.workspaceSettings[key(k)] : world.settings[key(k)];
          return {
            get: (k: string) => effective(k),
            inspect: (k: string) => ({ key: k, globalValue: world.settings[key(k)], workspaceValue: world.workspaceSettings[key(k)] }),
          };
        },
        createFileSystemWatcher: () => ({ dispose() {} }),
        onDidChangeConfiguration: listen(world.configListeners),
        onDidGrantWorkspaceTrust: listen(world.trustListeners),
      },
      commands: {
        registerCommand(id: string, run: (...args: unknown[]) => unknown) {
          world.registerCalls.push(id);
          if (world.commands.has(id)) {
            throw new Error(`command '${id}' already exists`);
          }
          world.commands.set(id, run);
          return disposable(() => world.commands.delete(id));
        },
        async executeCommand(id: string, ...args: unknown[]) {
          const run = world.commands.get(id);
          if (!run) {
            throw new Error(`command '${id}' not found`);
          }
          return run(...args);
        },
      },
      extensions: {
        getExtension: (id: string) =>
          id === 'ms-python.python' && world.pythonEnv !== undefined
            ? {
                isActive: true,
                exports: {
                  environments: {
                    getActiveEnvironmentPath: () => ({ path: world.pythonEnv }),
                    resolveEnvironment: async () => ({ executable: { uri: { fsPath: world.pythonEnv } } }),
                    onDidChangeActiveEnvironmentPath: listen(world.envListeners),
                  },
                },
              }
            : undefined,
      },
    };
  }

  languageClient(): unknown {
    const world = this;
    class LanguageClient extends FakeClient {
      constructor(id: string, name: string, serverOptions: { command: string }, clientOptions: Record<string, unknown>) {
        super(world, serverOptions, clientOptions);
      }
    }
    return {
      LanguageClient,
      State: { Stopped: 1, Starting: 3, Running: 2 },
      CloseAction: { DoNotRestart: 1, Restart: 2 },
      ErrorAction: { Continue: 1, Shutdown: 2 },
      TransportKind: { stdio: 0 },
      ExecuteCommandRequest: { method: 'workspace/executeCommand', type: { method: 'workspace/executeCommand' } },
    };
  }

  childProcess(): unknown {
    const world = this;
    return {
      execFile(_cmd: string, _args: string[], _opts: unknown, done: (error: Error | null, stdout: string, stderr: string) => void) {
        world.probes++;
        void world.delay().then(() => done(null, '', ''));
      },
    };
  }
}

export class FakeClient {
  state: 'initial' | 'starting' | 'running' | 'stopping' | 'stopped' = 'initial';
  features: { registrationType?: { method: string } }[] = [];
  requests: { command: string; arguments?: unknown[] }[] = [];
  private stateListeners: ((e: { oldState: number; newState: number }) => void)[] = [];
  private registrations: { dispose(): void }[] = [];

  constructor(
    readonly world: World,
    readonly serverOptions: { command: string },
    readonly clientOptions: Record<string, unknown>,
  ) {
    world.clients.push(this);
    // as vscode-languageclient's BaseLanguageClient does in its constructor
    this.registerFeature({ registrationType: { method: 'workspace/didChangeConfiguration' } });
    this.registerFeature({ registrationType: { method: 'workspace/executeCommand' } });
  }

  get settings(): { select: string[]; trusted: boolean } {
    return (this.clientOptions.initializationOptions as { settings: { select: string[]; trusted: boolean } }).settings;
  }

  registerFeature(feature: { registrationType?: { method: string } }): void {
    this.features.push(feature);
  }

  onDidChangeState(listener: (e: { oldState: number; newState: number }) => void): { dispose(): void } {
    this.stateListeners.push(listener);
    return { dispose: () => undefined };
  }

  private others(): string[] {
    return this.world.alive().filter((c) => c !== this).map((c) => `client ${this.world.clients.indexOf(c)} ${c.state}`);
  }

  async start(): Promise<void> {
    const clash = this.others();
    if (clash.length) {
      this.world.overlaps.push(`client ${this.world.clients.indexOf(this)} started while ${clash.join(', ')}`);
    }
    this.state = 'starting';
    await this.world.delay();
    // the ExecuteCommandFeature, when present, registers the server's commands
    if (this.features.some((f) => f.registrationType?.method === 'workspace/executeCommand')) {
      const vscode = this.world.vscode() as { commands: { registerCommand(id: string, run: () => unknown): { dispose(): void } } };
      for (const command of SERVER_COMMANDS) {
        this.registrations.push(vscode.commands.registerCommand(command, () => undefined));
      }
    }
    this.state = 'running';
    this.stateListeners.forEach((l) => l({ oldState: 3, newState: 2 }));
  }

  async stop(): Promise<void> {
    if (this.state === 'initial' || this.state === 'stopped') {
      return;
    }
    if (this.state !== 'running') {
      throw new Error(`Client is not running and can't be stopped. It's current state is: ${this.state}`);
    }
    this.state = 'stopping';
    await this.world.delay();
    this.registrations.forEach((r) => r.dispose());
    this.state = 'stopped';
    this.stateListeners.forEach((l) => l({ oldState: 2, newState: 1 }));
  }

  dispose(): Promise<void> {
    return this.stop();
  }

  isRunning(): boolean {
    return this.state === 'running';
  }

  async sendRequest(_type: unknown, params: { command: string; arguments?: unknown[] }): Promise<unknown> {
    this.requests.push(params);
    await this.world.delay();
    return { ok: true, text: `ran ${params.command}` };
  }
}

type Loader = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;

/** Load a fresh copy of the extension (out/src/extension.js) against `world`. */
export function loadExtension(world: World): {
  activate(context: { extensionPath: string; subscriptions: { dispose(): unknown }[] }): Promise<void>;
  deactivate(): Promise<void>;
} {
  const file = require.resolve(path.join(__dirname, '..', 'src', 'extension'));
  delete require.cache[file];
  const mod = Module as unknown as { _load: Loader };
  const original = mod._load;
  mod._load = function (request, parent, isMain) {
    if (request === 'vscode') {
      return world.vscode();
    }
    if (request === 'vscode-languageclient/node') {
      return world.languageClient();
    }
    if (request === 'child_process' && parent?.filename === file) {
      return world.childProcess();
    }
    return original.call(this, request, parent, isMain);
  };
  try {
    return require(file);
  } finally {
    mod._load = original;
  }
}
