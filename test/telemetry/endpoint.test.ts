/**
 * checkOtlpEndpoint: each way an endpoint can be wrong is one line naming its source and what to
 * write instead; a good one comes back as a URL.
 */
import { describe, expect, it } from 'vitest';
import { checkOtlpEndpoint, EndpointError } from '../../src/telemetry/endpoint.js';

const source = 'OTEL_EXPORTER_OTLP_ENDPOINT';

function problemOf(value: string): string {
  try {
    checkOtlpEndpoint({ value, source });
  } catch (error) {
    expect(error).toBeInstanceOf(EndpointError);
    return (error as Error).message;
  }
  throw new Error(`"${value}" was accepted`);
}

describe('checkOtlpEndpoint', () => {
  it.each([
    ['127.0.0.1:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT "127.0.0.1:4318" has no scheme: write http://127.0.0.1:4318 (or https://127.0.0.1:4318)'],
    ['localhost:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT "localhost:4318" has no scheme: write http://localhost:4318 (or https://localhost:4318)'],
    ['collector:4318/v1/traces', 'OTEL_EXPORTER_OTLP_ENDPOINT "collector:4318/v1/traces" has no scheme: write http://collector:4318/v1/traces (or https://collector:4318/v1/traces)'],
    ['  ', 'OTEL_EXPORTER_OTLP_ENDPOINT is empty: set it to a URL such as http://localhost:4318'],
    ['http://exa mple:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT "http://exa mple:4318" is not a valid URL'],
    ['grpc://collector:4317', 'OTEL_EXPORTER_OTLP_ENDPOINT "grpc://collector:4317" uses grpc:// but OTLP is exported over HTTP here: use http:// or https://'],
  ])('%j', (value, message) => {
    expect(problemOf(value)).toBe(message);
  });

  it('accepts http and https URLs, with or without a path', () => {
    expect(checkOtlpEndpoint({ value: 'http://127.0.0.1:4318', source }).href).toBe('http://127.0.0.1:4318/');
    expect(checkOtlpEndpoint({ value: ' https://otel.example/v1/traces ', source }).href).toBe('https://otel.example/v1/traces');
  });
});
