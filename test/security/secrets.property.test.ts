/**
 * Secrets never leave: random secrets in the API key, the base URL's userinfo and query, a request
 * header and the provider's error body, for every provider (Chat Completions, Messages, custom,
 * scripted) and every failure kind (4xx, 5xx, timeout, malformed bodies, refused connection), with
 * content capture off and on, never appear in an exported span or event, a metric, a telemetry file,
 * the thrown error (message, stack, fields, causes), a `footprint.run.failed` payload or a log line.
 * A real 127.0.0.1 server answers (and echoes every secret it received back in its body), the real
 * OTel SDK records, and each case is a whole agent run.
 */
import { metrics } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import fc from 'fast-check';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Agent,
  anthropic,
  isProviderError,
  openaiCompatible,
  RunFailedError,
  scripted,
  type LLMProvider,
  type ProviderErrorKind,
} from '../../src/index.js';
import { ManualReader } from '../support/meter.js';
import { closedPort, sendJson, startWireServer, type SeenRequest, type WireServer } from '../runtime/providers/wireServer.js';
import { startSdk } from '../support/sdk.js';
import { captureLogs, errorText, leaksIn, spansText, telemetryFilesText } from '../support/security/leaks.js';

const CAPTURE_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
const PROVIDERS = ['openai-key', 'openai-userinfo', 'anthropic', 'custom', 'scripted'] as const;
const HTTP_FAILURES = ['4xx', '5xx', 'timeout', 'not-json', 'bad-shape', 'bad-arguments', 'refused'] as const;
type ProviderKind = (typeof PROVIDERS)[number];
type Failure = (typeof HTTP_FAILURES)[number] | 'malformed';

interface Secrets {
  apiKey: string;
  user: string;
  password: string;
  query: string;
  header: string;
}

interface Case {
  provider: ProviderKind;
  failure: Failure;
  /** The HTTP status a 4xx or 5xx failure answers with. */
  status: number;
  capture: boolean;
  secrets: Secrets;
}

/** Printable ASCII (a header value can carry no more), at least 12 chars, tagged so no two collide. */
const secret = (tag: string) =>
  fc
    .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~!$&()*+,;=:@%/"\\ '), minLength: 10, maxLength: 40 })
    .map((body) => `${tag}${body}9`);

const secrets = fc.record({ apiKey: secret('K'), user: secret('U'), password: secret('P'), query: secret('Q'), header: secret('H') });

const httpCase = fc
  .record({
    provider: fc.constantFrom<ProviderKind>('openai-key', 'openai-userinfo', 'anthropic'),
    failure: fc.constantFrom<Failure>(...HTTP_FAILURES),
    clientStatus: fc.constantFrom(400, 401, 403, 404, 422, 429),
    serverStatus: fc.constantFrom(500, 502, 503),
    capture: fc.boolean(),
    secrets,
  })
  // Chat Completions arguments that are no JSON object fail no reply (the call gets an error result
  // the model sees: test/runtime/providers/unparsedArguments.test.ts); a Messages tool_use whose input
  // is no object still does.
  .filter(({ provider, failure }) => failure !== 'bad-arguments' || provider === 'anthropic')
  .map(({ clientStatus, serverStatus, ...rest }): Case => ({ ...rest, status: rest.failure === '5xx' ? serverStatus : clientStatus }));
const localCase = fc.record({
  provider: fc.constantFrom<ProviderKind>('custom', 'scripted'),
  failure: fc.constant<Failure>('malformed'),
  status: fc.constant(0),
  capture: fc.boolean(),
  secrets,
});

const EXPECTED_KIND: Record<Failure, ProviderErrorKind> = {
  '4xx': 'http',
  '5xx': 'http',
  timeout: 'timeout',
  'not-json': 'malformed_response',
  'bad-shape': 'malformed_response',
  'bad-arguments': 'malformed_response',
  refused: 'network',
  malformed: 'malformed_response',
};

let server: WireServer;
let current: Case | undefined;
let refusedPort: number;
const sdk = startSdk();
const reader = new ManualReader();
const meterProvider = new MeterProvider({ readers: [reader] });

beforeAll(async () => {
  metrics.setGlobalMeterProvider(meterProvider);
  server = await startWireServer((request, res) => answer(request, res));
  refusedPort = await closedPort();
});
afterAll(async () => {
  delete process.env[CAPTURE_ENV];
  await server.close();
  await meterProvider.shutdown();
  metrics.disable();
  await sdk.shutdown();
});

/** Everything the request carried, echoed back, as hostile or careless servers do. */
function echo(request: SeenRequest): string {
  return `Incorrect API key provided: ${JSON.stringify(request.headers)} for ${request.path}`;
}

function answer(request: SeenRequest, res: ServerResponse): void {
  const scenario = current!;
  const text = echo(request);
  const anthropicFormat = scenario.provider === 'anthropic';
  switch (scenario.failure) {
    case '4xx':
    case '5xx':
      // The code field is an identifier-looking secret, the message the whole request.
      return sendJson(
        res,
        scenario.status,
        anthropicFormat
          ? { type: 'error', error: { type: scenario.secrets.apiKey.replace(/[^A-Za-z0-9_]/g, '_'), message: text } }
          : { error: { message: text, type: 'invalid_request_error', code: scenario.secrets.header.replace(/[^A-Za-z0-9_]/g, '_') } },
      );
    case 'timeout':
      return; // never answers
    case 'not-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(`<html>${text}</html>`);
    case 'bad-shape':
      return sendJson(res, 200, anthropicFormat ? { content: text } : { choices: [{ message: { content: { text } } }] });
    case 'bad-arguments':
      // Messages only (the generator's filter says why).
      return sendJson(res, 200, { content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: text }], stop_reason: 'tool_use' });
    default:
      throw new Error(`no server answer for ${scenario.failure}`);
  }
}

function baseUrl(scenario: Case, withUserinfo: boolean, path: string): string {
  const url = new URL(scenario.failure === 'refused' ? `http://127.0.0.1:${refusedPort}${path}` : `${server.url}${path}`);
  url.searchParams.set('api_key', scenario.secrets.query);
  if (withUserinfo) {
    url.username = encodeURIComponent(scenario.secrets.user);
    url.password = encodeURIComponent(scenario.secrets.password);
  }
  return url.href;
}

function providerFor(scenario: Case): LLMProvider {
  const { secrets: s } = scenario;
  // Only the timeout case may hit the deadline; every other answer gets all the time a loaded machine needs.
  const transport = { timeoutMs: scenario.failure === 'timeout' ? 500 : 20_000, maxRetries: 0 };
  switch (scenario.provider) {
    case 'openai-key':
      return openaiCompatible({ baseURL: baseUrl(scenario, false, '/v1'), apiKey: s.apiKey, headers: { 'x-gateway-token': s.header }, ...transport });
    case 'openai-userinfo':
      return openaiCompatible({ baseURL: baseUrl(scenario, true, '/v1'), headers: { 'x-gateway-token': s.header }, ...transport });
    case 'anthropic':
      return anthropic({ baseURL: baseUrl(scenario, true, ''), apiKey: s.apiKey, ...transport });
    case 'custom':
      return {
        name: 'custom',
        complete: async () => ({ content: { key: s.apiKey }, toolCalls: [{ id: s.user, name: s.password, args: s.query }], usage: { input: -1, output: 0 }, stopReason: s.header }) as never,
      };
    case 'scripted':
      return scripted({ replies: () => ({ content: { key: s.apiKey }, stopReason: s.header }) as never });
  }
}

/** What the server must have received, so the property is not vacuous: the secrets really travelled. */
function expectSecretsSent(scenario: Case): void {
  if (scenario.provider === 'custom' || scenario.provider === 'scripted' || scenario.failure === 'refused') return;
  expect(server.requests).toHaveLength(1);
  const { headers, path } = server.requests[0]!;
  const s = scenario.secrets;
  expect(new URL(path, 'http://x').searchParams.get('api_key')).toBe(s.query);
  const basic = `Basic ${Buffer.from(`${s.user}:${s.password}`).toString('base64')}`;
  if (scenario.provider === 'openai-key') expect([headers.authorization, headers['x-gateway-token']]).toEqual([`Bearer ${s.apiKey}`, s.header]);
  if (scenario.provider === 'openai-userinfo') expect([headers.authorization, headers['x-gateway-token']]).toEqual([basic, s.header]);
  if (scenario.provider === 'anthropic') expect([headers.authorization, headers['x-api-key']]).toEqual([basic, s.apiKey]);
}

describe('secrets never leave', () => {
  it('for every provider and failure kind, with content capture off and on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(httpCase, localCase), async (scenario) => {
        current = scenario;
        server.requests.length = 0;
        sdk.reset();
        if (scenario.capture) process.env[CAPTURE_ENV] = 'span_only';
        else delete process.env[CAPTURE_ENV];
        const logs = captureLogs();
        const failedPayloads: unknown[] = [];
        let thrown: unknown;
        try {
          const agent = Agent.create({ provider: providerFor(scenario), model: 'm-secret', id: 'vault', name: 'Vault' }).build();
          agent.on('footprint.run.failed', (event) => failedPayloads.push(event.payload));
          thrown = await agent.run('look up invoice 42').then(
            () => undefined,
            (error: unknown) => error,
          );
        } finally {
          logs.stop();
        }

        expect(thrown).toBeInstanceOf(RunFailedError);
        const cause = (thrown as RunFailedError).cause;
        expect(isProviderError(cause)).toBe(true);
        expect((cause as { kind: string }).kind).toBe(scenario.provider === 'scripted' ? 'script' : EXPECTED_KIND[scenario.failure]);
        expect((cause as { status?: number }).status).toBe(EXPECTED_KIND[scenario.failure] === 'http' ? scenario.status : undefined);
        expect(failedPayloads).toHaveLength(1);
        expectSecretsSent(scenario);

        const spans = sdk.spans();
        const { resourceMetrics } = await reader.collect();
        const texts = {
          spans: spansText(spans),
          metrics: JSON.stringify(resourceMetrics.scopeMetrics),
          'telemetry files': await telemetryFilesText(spans, resourceMetrics),
          'thrown error': errorText(thrown),
          'footprint.run.failed': JSON.stringify(failedPayloads),
          logs: logs.lines.join('\n'),
        };
        expect(leaksIn(texts, { ...scenario.secrets })).toEqual([]);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
