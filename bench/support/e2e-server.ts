import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The e2e server (built PWA + real sync server on its own embedded Postgres) for a browser bench.
 * Exits the process when dist/ is missing; `stop()` ends the server and its children.
 */
export async function startBenchServer(port: number): Promise<{ stop(): void }> {
  if (!existsSync('dist/index.html')) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
  const server = spawn('npx', ['tsx', 'tests/e2e/support/start-e2e-server.ts'], {
    env: { ...process.env, E2E_PORT: String(port), E2E_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('e2e server ready') && resolve());
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    stop() {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    },
  };
}
