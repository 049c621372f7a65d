import { createServer, type Server } from 'node:http';
import client from 'prom-client';
import { metricsRegistry } from './metrics';

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one given for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * GET /metrics in Prometheus text format on a port of its own (HHT_METRICS_PORT), never on the portal's port, so it
 * can be left off the load balancer and firewalled to the Prometheus server. `cluster`: the primary of HHT_WORKERS > 1,
 * which asks every worker for its figures and serves them together (counters and histograms summed).
 */
export async function startMetricsServer(opts: { port: number; host: string; cluster: boolean }): Promise<MetricsServer> {
  const aggregator = opts.cluster ? new client.AggregatorRegistry() : undefined;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found: GET /metrics\n');
      return;
    }
    const text = aggregator ? aggregator.clusterMetrics() : metricsRegistry.metrics();
    text.then(
      (body) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(body),
      (err: unknown) => res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
