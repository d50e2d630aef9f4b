import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:4404';
const [,, path = '/campaign/new', name = 'wizard', email = 'brand@pacta.dev', script = ''] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [w, theme] of [[390, 'warm'], [1280, 'warm'], [1280, 'dark']]) {
  const context = await browser.newContext({ viewport: { width: w, height: 900 } });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
  await page.goto(base + '/auth/signin');
  await page.evaluate((t) => localStorage.setItem('pacta.theme', t), theme);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('pacta-demo-2026');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/dashboard/);
  await page.goto(base + path);
  await page.waitForTimeout(2500);
  if (script) await (new Function('page', `return (async () => { ${script} })()`))(page);
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/briefs-shots/${name}-${w}-${theme}.png`, fullPage: true });
  await context.close();
}
await browser.close();
