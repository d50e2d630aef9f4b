/**
 * Runs src/lib/recommendations-client.ts in headless Chromium, bundled by Vite exactly as the app
 * bundles it (the `new Worker(new URL(…), { type: 'module' })` in the client becomes a worker chunk).
 * Used by the client's browser test and by `npm run bench:reco`. The page exposes the client's
 * functions as `window.recommendations` (and src/domain/search.ts as `window.search`) — a test page
 * only, never the app.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserRecommendationsHarness {
  page: Page;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
};

async function buildHarness(workDir: string): Promise<string> {
  const source = join(workDir, 'src');
  const out = join(workDir, 'dist');
  await mkdir(source, { recursive: true });
  await writeFile(
    join(source, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>recommendations harness</title></head><body><script type="module" src="./main.ts"></script></body></html>',
  );
  await writeFile(
    join(source, 'main.ts'),
    `import * as recommendations from ${JSON.stringify(join(repoRoot, 'src/lib/recommendations-client.ts'))};\n` +
      `import * as search from ${JSON.stringify(join(repoRoot, 'src/domain/search.ts'))};\n` +
      `(globalThis as unknown as { recommendations: typeof recommendations }).recommendations = recommendations;\n` +
      // The pure search helpers the app runs on the main thread between an answer and its render (bench:search).
      `(globalThis as unknown as { search: typeof search }).search = search;\n`,
  );
  await build({
    root: source,
    configFile: false,
    logLevel: 'error',
    // Same build target and worker format (Vite's default) as vite.config.ts, without the app's PWA plugin.
    build: { outDir: out, emptyOutDir: true, target: 'es2022' },
  });
  return out;
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path === '/' ? 'index.html' : path);
    readFile(file).then(
      (body) => {
        response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => {
        response.writeHead(404).end();
      },
    );
  });
  return new Promise((resolveServer) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      resolveServer({ server, url: `http://127.0.0.1:${address.port}/` });
    });
  });
}

/** Builds the harness (a few seconds), serves it on 127.0.0.1 and opens it in Chromium. */
export async function startBrowserRecommendationsHarness(): Promise<BrowserRecommendationsHarness> {
  // A directory per run, so a test run and a bench run can build side by side.
  const cache = join(repoRoot, 'node_modules/.cache');
  await mkdir(cache, { recursive: true });
  const workDir = await mkdtemp(join(cache, 'recommendations-harness-'));
  const dist = await buildHarness(workDir);
  const { server, url } = await serve(dist);
  const removeBuild = () => rm(workDir, { recursive: true, force: true });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const page = await browser.newPage();
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));
    // Scripts run by tsx (esbuild keepNames) wrap named functions in __name(); functions they pass to
    // page.evaluate carry those calls into the page, so the page needs the (identity) helper too.
    await page.addInitScript('globalThis.__name ??= (fn) => fn;');
    await page.goto(url);
    await page.waitForFunction(() => 'recommendations' in globalThis);
    if (pageErrors.length) throw pageErrors[0];
    const opened = browser;
    return {
      page,
      async close() {
        await opened.close();
        await new Promise((done) => server.close(done));
        await removeBuild();
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    await removeBuild();
    throw error;
  }
}
