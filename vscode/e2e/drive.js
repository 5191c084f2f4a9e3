// Drive a code-server workbench with playwright-core and Debian's chromium: open a file,
// wait for vtlint's squiggles, read the Problems panel, hover the findings, screenshot.
// Environment: CS_URL, E2E_FILE, E2E_EXPECT (codes, comma-separated: each must be listed
// in the Problems panel), E2E_HOVER ('|'-separated texts one hover must all contain),
// E2E_HOVER_AT (LINE:COLUMN to hover with the keyboard; else every squiggle is tried), E2E_OUT.
const { openBrowser, timedLog } = require('./browser');
const fs = require('fs');
const path = require('path');

const URL_ = process.env.CS_URL;
const FILE = process.env.E2E_FILE || 'seed.py';
const EXPECT = (process.env.E2E_EXPECT || 'VTL101').split(',').filter(Boolean);
const HOVER = (process.env.E2E_HOVER || '').split('|').filter(Boolean);
const HOVER_AT = process.env.E2E_HOVER_AT || '';
const OUT = process.env.E2E_OUT || 'artifacts/e2e';
const SQUIGGLES = '.monaco-editor .view-overlays [class*="squiggly-"]';

async function openFile(page, log) {
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => {});
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { timeout: 15000 });
  await page.keyboard.type(FILE, { delay: 20 });
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${FILE}"]`, { timeout: 15000 });
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.tab[aria-label*="${FILE}"]`, { timeout: 15000 });
  log('file opened');
}

async function problems(page) {
  await page.keyboard.press('Control+Shift+M');
  await page.waitForSelector('.markers-panel', { timeout: 15000 });
  for (const code of EXPECT) {
    await page.locator('.markers-panel .monaco-list-row').filter({ hasText: code }).first().waitFor({ timeout: 30000 });
  }
  return page.locator('.markers-panel .monaco-list-row').allInnerTexts();
}

// Put the cursor at LINE:COLUMN (Go to Line) and show the hover there (Ctrl+K Ctrl+I).
async function hoverAt(page, log) {
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  await page.waitForSelector('.quick-input-widget input', { timeout: 15000 });
  await page.keyboard.type(HOVER_AT, { delay: 20 });
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const hover = page.locator('.monaco-hover:visible').filter({ hasText: HOVER[0] || 'VTL' }).first();
  await hover.waitFor({ state: 'visible', timeout: 15000 });
  const text = await hover.innerText();
  const missing = HOVER.filter((want) => !text.includes(want));
  if (missing.length) {
    throw new Error(`the hover at ${HOVER_AT} lacks ${JSON.stringify(missing)}: ${JSON.stringify(text.slice(0, 400))}`);
  }
  log('HOVER:', JSON.stringify(text.slice(0, 600)));
  return text;
}

// Hover every squiggle in turn until one hover holds all the expected texts.
async function hoverWith(page, log) {
  if (HOVER_AT) {
    return hoverAt(page, log);
  }
  const squiggles = page.locator(SQUIGGLES);
  const count = await squiggles.count();
  const seen = [];
  for (let i = 0; i < count; i++) {
    const box = await squiggles.nth(i).boundingBox();
    if (!box) continue;
    await page.mouse.move(5, 5);
    await page.waitForTimeout(200);
    await page.mouse.move(box.x + Math.min(box.width / 2, 12), box.y + box.height / 2);
    const hover = page.locator('.monaco-hover:visible').filter({ hasText: 'VTL' }).first();
    try {
      await hover.waitFor({ state: 'visible', timeout: 5000 });
    } catch {
      continue;
    }
    const text = await hover.innerText();
    seen.push(text);
    if (HOVER.every((want) => text.includes(want))) {
      log('HOVER:', JSON.stringify(text.slice(0, 600)));
      return text;
    }
  }
  throw new Error(`no hover holds ${JSON.stringify(HOVER)}; hovers seen: ${JSON.stringify(seen.map((t) => t.slice(0, 200)))}`);
}

(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  const log = timedLog();
  const { page, close } = await openBrowser();
  page.on('console', (m) => { if (m.type() === 'error') console.log('  [browser error]', m.text().slice(0, 200)); });
  const failures = [];
  try {
    await page.goto(URL_, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
    log('workbench ready');
    await openFile(page, log);
    await page.locator(SQUIGGLES).first().waitFor({ state: 'attached', timeout: 90000 });
    log('squiggles rendered:', await page.locator(SQUIGGLES).count());
    const rows = await problems(page);
    log('PROBLEMS:', JSON.stringify(rows));
    fs.writeFileSync(path.join(OUT, 'problems.json'), JSON.stringify(rows, null, 2));
    if (HOVER.length) {
      const text = await hoverWith(page, log);
      fs.writeFileSync(path.join(OUT, 'hover.md'), text);
    }
  } catch (e) {
    failures.push(e.message.split('\n')[0]);
    console.log('FAILED:', failures[0]);
  } finally {
    await page.screenshot({ path: path.join(OUT, 'screenshot.png') });
    log('screenshot', path.join(OUT, 'screenshot.png'));
    await close();
  }
  console.log(failures.length ? 'E2E: 0 passed, 1 failed' : 'E2E: 1 passed, 0 failed');
  process.exit(failures.length ? 1 : 0);
})();
