// Workspace Trust in a real workbench (run.sh's `trust` scenario). The workspace, opened
// in Restricted Mode, asks for its own interpreter in .vscode/settings.json (a wrapper that
// records each run in E2E_RAN). Checked, in order:
//   1. untrusted: the static pass runs (squiggles) with the user's interpreter, the status
//      bar says "static only", a notification says which interpreter is not used and why,
//      the workspace's interpreter never ran, one server process;
//   2. trust granted (the notification's "Manage Workspace Trust", then "Trust"): the
//      server is restarted with the workspace's interpreter, exactly one server process is
//      left, no error anywhere ("command ... already exists" was the bug), squiggles again;
//   3. "vtlint: Restart server": a new server replaces the old one, still exactly one.
// A planted vtlint/ package in the workspace is never imported (E2E_PLANTED never appears).
// Environment: CS_URL, CS_PID (code-server, whose descendants are counted), E2E_WS_PYTHON,
// E2E_RAN, E2E_PLANTED, E2E_LOGS (the profile's logs folder), E2E_FILE, E2E_OUT.
const { openBrowser, timedLog } = require('./browser');
const fs = require('fs');
const path = require('path');

const URL_ = process.env.CS_URL;
const CS_PID = Number(process.env.CS_PID);
const WS_PYTHON = process.env.E2E_WS_PYTHON;
const RAN = process.env.E2E_RAN;
const PLANTED = process.env.E2E_PLANTED;
const LOGS = process.env.E2E_LOGS;
const FILE = process.env.E2E_FILE || 'seed.py';
const OUT = process.env.E2E_OUT || 'artifacts/e2e/trust';
const SQUIGGLES = '.monaco-editor .view-overlays [class*="squiggly-"]';
const BAD = /already exists|did not start|stopping the server|not running|Client is not|Error:|crashed/;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Poll `probe` until it returns a truthy value (returned) or `ms` pass (throws `what`). */
async function until(what, probe, ms = 60000, every = 250) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    last = await probe();
    if (last) return last;
    await sleep(every);
  }
  throw new Error(`timed out (${ms / 1000} s) waiting for ${what}`);
}

/** The vtlint language servers running under code-server: [{pid, cmd}]. */
function servers() {
  const parent = new Map();
  const cmd = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmd.set(Number(name), fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      // the process is gone
    }
  }
  const under = (pid) => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === CS_PID) return true;
    return false;
  };
  return [...cmd].filter(([pid, c]) => / -m vtlint lsp/.test(c) && under(pid)).map(([pid, c]) => ({ pid, cmd: c }));
}

function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The text of the profile's log files whose name matches `re` (the output channel, the extension host). */
function logs(re) {
  const found = [];
  const walk = (dir) => {
    let entries = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (re.test(e.name)) found.push(read(p));
    }
  };
  walk(LOGS);
  return found.join('\n');
}
const outputLog = () => logs(/-vtlint\.log$/);
const starts = () => outputLog().split('\n').filter((l) => l.startsWith('vtlint: starting the server with'));

async function command(page, title) {
  await page.keyboard.press('Control+Shift+P');
  await page.waitForSelector('.quick-input-widget input', { timeout: 15000 });
  await page.keyboard.type(title, { delay: 15 });
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first().waitFor({ timeout: 15000 });
  await page.keyboard.press('Enter');
}

async function openFile(page) {
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => {});
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { timeout: 15000 });
  await page.keyboard.type(FILE, { delay: 20 });
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${FILE}"]`, { timeout: 15000 });
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.tab[aria-label*="${FILE}"]`, { timeout: 15000 });
}

const vtlintItem = (page) => page.locator('.statusbar-item').filter({ hasText: /vtlint/ }).first();

/** Toasts on screen and, opened once, the notification centre: [{text, error}]. */
async function notifications(page) {
  const rows = page.locator('.notification-list-item');
  const out = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    out.push({
      text: (await row.innerText().catch(() => '')).replace(/\s+/g, ' '),
      error: (await row.locator('.codicon-error').count().catch(() => 0)) > 0,
    });
  }
  return out;
}

/** Close the Workspace Trust editor (a modal editor: Escape does not close it). */
async function closeTrustEditor(page) {
  const editor = page.locator('.workspace-trust-editor');
  const chain = await editor.evaluate((el) => {
    const out = [];
    for (let e = el; e; e = e.parentElement) out.push(`${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
    return out;
  }).catch(() => []);
  fs.writeFileSync(path.join(OUT, 'trust-editor-dom.txt'), chain.join('\n'));
  for (const sel of ['.modal-editor-part .codicon-close', '[class*="modal-editor"] .codicon-close', '[class*="modal"] [aria-label^="Close"]']) {
    const close = page.locator(sel).first();
    if (await close.isVisible().catch(() => false)) {
      await close.click();
      break;
    }
  }
  await editor.waitFor({ state: 'hidden', timeout: 10000 }).catch(async () => {
    const html = await page.locator('body').evaluate((b) => {
      const el = document.querySelector('.workspace-trust-editor');
      let e = el;
      for (let i = 0; i < 6 && e && e.parentElement; i++) e = e.parentElement;
      return e ? e.outerHTML.slice(0, 20000) : '';
    });
    fs.writeFileSync(path.join(OUT, 'trust-editor.html'), html);
    throw new Error('the Workspace Trust editor did not close');
  });
}

/** Exactly one server, the same one for `ms`: returns it. */
async function oneServer(what, ms = 3000) {
  const first = await until(`${what}: exactly one vtlint server`, () => {
    const s = servers();
    return s.length === 1 ? s[0] : undefined;
  });
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const s = servers();
    if (s.length !== 1 || s[0].pid !== first.pid) {
      throw new Error(`${what}: servers changed while settled: ${JSON.stringify(s)}`);
    }
    await sleep(200);
  }
  return first;
}

(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  const log = timedLog();
  const checks = [];
  const check = (name, ok, detail = '') => {
    checks.push({ name, ok: !!ok, detail });
    log(ok ? 'ok  ' : 'FAIL', name, detail ? `— ${detail}` : '');
  };
  const { page, close } = await openBrowser();
  let failure;
  try {
    await page.goto(URL_, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    log('workbench ready');

    // 1. Restricted Mode
    const restrictedItem = page.locator('.statusbar-item').filter({ hasText: 'Restricted Mode' });
    check('the workspace opens in Restricted Mode', await restrictedItem.first().waitFor({ timeout: 20000 }).then(() => true, () => false));
    await openFile(page);
    await page.locator(SQUIGGLES).first().waitFor({ state: 'attached', timeout: 90000 });
    check('untrusted: the static pass runs (squiggles)', true, `${await page.locator(SQUIGGLES).count()} squiggles`);
    const untrustedServer = await oneServer('untrusted');
    check('untrusted: one server process', true, untrustedServer.cmd);
    const status = await until('the vtlint status item', async () => {
      const t = (await vtlintItem(page).innerText().catch(() => '')).trim();
      return t && (await vtlintItem(page).locator('.codicon-check').count()) ? t : undefined;
    });
    check('untrusted: the status bar says "static only"', /static only/.test(status), JSON.stringify(status));
    check("untrusted: the workspace's interpreter never ran", !fs.existsSync(RAN), read(RAN));
    check('untrusted: the server runs with the user interpreter', starts().every((l) => !l.includes(WS_PYTHON)), JSON.stringify(starts()));
    const notice = page.locator('.notification-toast').filter({ hasText: 'Restricted Mode' }).first();
    const shown = await notice.waitFor({ timeout: 15000 }).then(() => true, () => false);
    const noticeText = shown ? (await notice.innerText()).replace(/\s+/g, ' ') : '';
    check('untrusted: a notification says which interpreter is not used and why',
      shown && noticeText.includes(WS_PYTHON.replace(/^.*\/ws\//, '')) && /not trusted/.test(noticeText), noticeText);
    await page.screenshot({ path: path.join(OUT, 'restricted.png') });

    // 2. Trust: the notification's button opens the Workspace Trust editor
    const before = starts().length;
    if (shown) {
      await notice.hover();
      await notice.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    } else {
      await command(page, 'Workspaces: Manage Workspace Trust');
    }
    const trustButton = page.locator('.workspace-trust-editor .monaco-button').filter({ hasText: /^\s*Trust\s*$/ }).first();
    await trustButton.waitFor({ timeout: 15000 });
    await trustButton.click();
    log('trust granted');
    await until('Restricted Mode to end', async () => (await restrictedItem.count()) === 0, 20000);
    await until('the workspace interpreter to start the server', () => / -I -m vtlint lsp/.test(read(RAN)), 60000);
    const trustedServer = await oneServer('trusted');
    check('trusted: exactly one server process, a new one', trustedServer.pid !== untrustedServer.pid,
      `${untrustedServer.pid} -> ${trustedServer.pid}`);
    check("trusted: the server runs with the workspace's interpreter",
      read(RAN).split('\n').some((l) => l.startsWith(`${trustedServer.pid} `)), read(RAN).trim());
    const trustedStatus = await until('the status item to leave "static only"', async () => {
      const t = (await vtlintItem(page).innerText().catch(() => '')).trim();
      return t && !/static only/.test(t) && (await vtlintItem(page).locator('.codicon-check').count()) ? t : undefined;
    }, 30000).catch(() => '');
    check('trusted: the status bar shows a running server, not "static only"', trustedStatus, JSON.stringify(trustedStatus));
    const afterTrust = starts().slice(before);
    check('trusted: restarted with the workspace interpreter', afterTrust.length >= 1 && afterTrust[afterTrust.length - 1].includes(WS_PYTHON),
      JSON.stringify(afterTrust));
    await closeTrustEditor(page);
    await openFile(page);
    await page.locator(SQUIGGLES).first().waitFor({ state: 'attached', timeout: 60000 });
    check('trusted: diagnostics again', true, `${await page.locator(SQUIGGLES).count()} squiggles`);

    // 3. The restart command
    const beforeRestart = starts().length;
    await command(page, 'vtlint: Restart server');
    await until('a restart', () => starts().length > beforeRestart, 30000);
    const restarted = await until('the old server to go', async () => {
      const s = servers();
      return s.length === 1 && s[0].pid !== trustedServer.pid ? s[0] : undefined;
    }, 30000).catch(() => undefined);
    check('restart command: one new server replaces the old', restarted && (await oneServer('restarted')).pid === restarted.pid,
      JSON.stringify(servers()));

    // no errors anywhere
    const notes = await notifications(page);
    const bad = notes.filter((n) => n.error || BAD.test(n.text));
    check('no error notification', bad.length === 0, JSON.stringify(bad.length ? bad : notes.map((n) => n.text.slice(0, 120))));
    const badLines = outputLog().split('\n').filter((l) => BAD.test(l));
    check('no error in the vtlint output', badLines.length === 0, JSON.stringify(badLines.slice(0, 5)));
    const hostLines = logs(/exthost\.log$/).split('\n').filter((l) => /already exists/.test(l));
    check('no "command already exists" in the extension host log', hostLines.length === 0, JSON.stringify(hostLines.slice(0, 3)));
    check('the planted vtlint package was never imported', !fs.existsSync(PLANTED), read(PLANTED));
  } catch (e) {
    failure = e.message.split('\n')[0];
    console.log('FAILED:', failure);
  } finally {
    await page.screenshot({ path: path.join(OUT, 'trusted.png') }).catch(() => {});
    fs.writeFileSync(path.join(OUT, 'checks.json'), JSON.stringify({ checks, failure, output: outputLog().split('\n') }, null, 2));
    await close();
  }
  const failed = checks.filter((c) => !c.ok).length + (failure ? 1 : 0);
  const passed = checks.filter((c) => c.ok).length;
  console.log(`E2E trust: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
