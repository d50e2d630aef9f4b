/**
 * Generates the PWA's PNG icons and store screenshots with headless Chromium (playwright-core and the
 * system browser; nothing is downloaded). Run after `npm run build` (screenshots need dist/):
 *
 *   npx tsx scripts/make-pwa-assets.ts            # icons + screenshots
 *   npx tsx scripts/make-pwa-assets.ts --icons    # icons only
 *
 * The PNGs are committed; re-run when the mark or the landing page changes.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const publicDir = path.join(root, 'public');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BRAND = '#a8431a';
const CREAM = '#fbf7f2';

/** The Pacta mark on a square. `safe` shrinks it into the maskable safe zone (a centred 80% circle). */
function markSvg(opts: { size: number; rounded: boolean; safe: boolean }): string {
  const s = opts.size;
  const inset = opts.safe ? 0.22 : 0.16;
  const g = s * inset;
  const w = s - 2 * g;
  const stroke = w * 0.14;
  const x0 = g + w * 0.28;
  const top = g + w * 0.2;
  const bottom = g + w * 0.8;
  const bowlEnd = g + w * 0.56;
  const bowlRight = g + w * 0.74;
  const r = (bowlEnd - top) / 2;
  const rx = opts.rounded ? s * 0.22 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c2562a"/><stop offset="1" stop-color="${BRAND}"/></linearGradient></defs>
  <rect width="${s}" height="${s}" rx="${rx}" fill="url(#g)"/>
  <path d="M${x0} ${bottom} V${top} H${bowlRight - r} A${r} ${r} 0 0 1 ${bowlRight - r} ${bowlEnd} H${x0}"
    fill="none" stroke="${CREAM}" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="${g + w * 0.72}" cy="${bottom}" r="${stroke * 0.62}" fill="${CREAM}"/>
</svg>`;
}

async function renderPng(page: import('playwright-core').Page, svg: string, size: number, file: string): Promise<void> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: file, omitBackground: true });
  console.log(`wrote ${path.relative(root, file)}`);
}

/** Serves dist/ with an SPA fallback, so the screenshots show the real built app. */
function serveDist(): Promise<{ url: string; close: () => void }> {
  const dist = path.join(root, 'dist');
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.html': 'text/html',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file = path.join(dist, decodeURIComponent(url.pathname));
    if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory())
      file = path.join(dist, 'index.html');
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  const icons = path.join(publicDir, 'icons');
  fs.mkdirSync(icons, { recursive: true });
  await renderPng(page, markSvg({ size: 192, rounded: true, safe: false }), 192, path.join(icons, 'icon-192.png'));
  await renderPng(page, markSvg({ size: 512, rounded: true, safe: false }), 512, path.join(icons, 'icon-512.png'));
  await renderPng(page, markSvg({ size: 512, rounded: false, safe: true }), 512, path.join(icons, 'maskable-512.png'));
  await renderPng(
    page,
    markSvg({ size: 180, rounded: false, safe: false }),
    180,
    path.join(icons, 'apple-touch-icon.png'),
  );
  fs.writeFileSync(path.join(publicDir, 'favicon.svg'), markSvg({ size: 64, rounded: true, safe: false }));
  console.log('wrote public/favicon.svg');
  // Browsers still ask for /favicon.ico on pages without a <link rel=icon> (a JSON response, say).
  const favicon32 = path.join(icons, 'favicon-32.png');
  await renderPng(page, markSvg({ size: 32, rounded: true, safe: false }), 32, favicon32);
  fs.writeFileSync(path.join(publicDir, 'favicon.ico'), pngInIco(fs.readFileSync(favicon32), 32));
  fs.rmSync(favicon32);
  console.log('wrote public/favicon.ico');

  if (!process.argv.includes('--icons')) {
    if (!fs.existsSync(path.join(root, 'dist', 'index.html')))
      throw new Error('Run `npm run build` first: screenshots show dist/.');
    const site = await serveDist();
    const shots = path.join(publicDir, 'screenshots');
    fs.mkdirSync(shots, { recursive: true });
    for (const shot of [
      { name: 'wide.png', viewport: { width: 1280, height: 800 }, scale: 1 },
      { name: 'narrow.png', viewport: { width: 375, height: 667 }, scale: 2 },
    ]) {
      const context = await browser.newContext({
        viewport: shot.viewport,
        deviceScaleFactor: shot.scale,
        serviceWorkers: 'block',
      });
      const p = await context.newPage();
      await p.goto(site.url, { waitUntil: 'networkidle' });
      await p.screenshot({ path: path.join(shots, shot.name) });
      console.log(`wrote public/screenshots/${shot.name}`);
      await context.close();
    }
    site.close();
  }
} finally {
  await browser.close();
}

/** An .ico holding one PNG image (the ICO format allows PNG payloads): 6-byte header, one 16-byte entry. */
function pngInIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6); // width
  header.writeUInt8(size, 7); // height
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9); // reserved
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // image size
  header.writeUInt32LE(22, 18); // image offset
  return Buffer.concat([header, png]);
}
