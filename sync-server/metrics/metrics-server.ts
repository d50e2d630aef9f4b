import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { refusal } from '../http/errors.ts';

export type MetricsServer = { url: string; close(): Promise<void> };

/**
 * Serves `GET /metrics` on its own port (METRICS_PORT), on loopback unless METRICS_HOST says otherwise:
 * the public port never answers it, and each instance is scraped on its own address (through a load
 * balancer a scrape would reach any one instance). See docs/decisions/026-jobs-claim-their-work.md.
 */
export async function startMetricsServer(
  registry: Registry,
  opts: { host: string; port: number },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(refusal('not_found', 'Only GET /metrics is served here.')));
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(refusal('internal_error', 'The metrics could not be collected.')));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
