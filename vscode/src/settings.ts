// Pure: VS Code settings -> what the language server receives. No `vscode` import,
// so mocha can test it outside the editor.

export interface RawSettings {
  enable?: boolean;
  select?: string[];
  ignore?: string[];
  runtimeCommand?: string;
  runtimeOnSave?: boolean;
}

export interface ServerSettings {
  enable: boolean;
  select: string[];
  ignore: string[];
  trusted: boolean;
  runtime: { command?: string; onSave: boolean };
}

function codes(values: unknown): string[] {
  if (!Array.isArray(values)) {
    return [];
  }
  return values
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toUpperCase())
    .filter((v) => v.length > 0);
}

/** The server's `initializationOptions.settings`. Untrusted workspaces never get a
 * harness command and never run at save: only the static pass runs there. */
export function serverSettings(raw: RawSettings, trusted: boolean): ServerSettings {
  const command = (raw.runtimeCommand ?? '').trim();
  return {
    enable: raw.enable ?? true,
    select: codes(raw.select),
    ignore: codes(raw.ignore),
    trusted,
    runtime: {
      command: trusted && command ? command : undefined,
      onSave: trusted && (raw.runtimeOnSave ?? false),
    },
  };
}

/** Settings whose change needs a server restart (every vtlint setting does: they
 * are sent at initialization, as the interpreter is). */
export const RESTART_SECTIONS = ['vtlint'];

/** Whether the runtime command may run now. */
export function runtimeAllowed(trusted: boolean): { ok: boolean; reason?: string } {
  return trusted
    ? { ok: true }
    : { ok: false, reason: 'vtlint: runtime confirmation runs your harness; trust this workspace first.' };
}
