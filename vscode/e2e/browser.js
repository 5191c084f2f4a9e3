// What both e2e scenarios (drive.js, trust.js) drive the workbench with: a headless Chromium
// in a throwaway profile, and a log line stamped with the seconds since the scenario began.
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

function timedLog() {
  const t0 = Date.now();
  return (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
}

/** A browser page; `close()` ends the browser and removes its profile. */
async function openBrowser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-profile-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 900 },
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  const close = async () => {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { page, close };
}

module.exports = { openBrowser, timedLog };
