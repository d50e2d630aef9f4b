import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4400';
const who = process.argv[2]; const paths = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text().slice(0, 200)); });
await page.goto(base + '/auth/signin');
await page.getByLabel('Email', { exact: true }).fill(`${who}@pacta.dev`);
await page.getByLabel('Password', { exact: true }).fill('pacta-demo-2026');
await page.getByRole('button', { name: 'Sign in', exact: true }).click();
await page.waitForURL(/dashboard/, { timeout: 60000 });
await page.waitForTimeout(6000);
for (const p of paths) {
  await page.goto(base + p);
  await page.waitForTimeout(3500);
  const name = (who + p).replace(/[^a-z0-9]+/gi, '_');
  for (const w of [1280, 390]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/${name}_${w}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
console.log('errors', JSON.stringify(errors));
await browser.close();
