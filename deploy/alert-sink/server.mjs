// alert-sink: a tiny webhook receiver for the footprint-otel compose stack. Alertmanager
// (/alertmanager/page, /alertmanager/ticket) and Grafana alerting (/grafana) post their
// notifications here; it logs one line per alert so `docker compose logs alert-sink` shows what
// would have paged, and keeps the last 200 for GET /alerts. GET /healthz backs the health check.
// No dependencies: run with `node server.mjs` (PORT, default 9099; HOST, default 0.0.0.0).
import http from 'node:http';

const port = Number(process.env.PORT ?? 9099);
const host = process.env.HOST ?? '0.0.0.0';
const keep = 200;
const received = [];

function record(path, body) {
  const alerts = Array.isArray(body?.alerts) ? body.alerts : [];
  for (const alert of alerts) {
    const labels = alert.labels ?? {};
    const entry = {
      at: new Date().toISOString(),
      path,
      status: alert.status ?? body.status ?? 'unknown',
      labels,
      annotations: alert.annotations ?? {},
    };
    received.push(entry);
    if (received.length > keep) received.shift();
    const summary = entry.annotations.summary ? ` - ${entry.annotations.summary}` : '';
    console.log(`[alert-sink] ${path} ${entry.status} ${labels.alertname ?? '?'} ${JSON.stringify(labels)}${summary}`);
  }
  if (alerts.length === 0) console.log(`[alert-sink] ${path} notification without alerts: ${JSON.stringify(body).slice(0, 500)}`);
}

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://sink').pathname;
  if (req.method === 'GET' && path === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (req.method === 'GET' && path === '/alerts') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      record(path, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch (err) {
      console.error(`[alert-sink] ${path} unreadable body: ${err.message}`);
      res.writeHead(400).end();
    }
  });
});

server.listen(port, host, () => console.log(`[alert-sink] listening on ${host}:${server.address().port}`));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
