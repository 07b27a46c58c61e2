/**
 * The Resource every span and metric carries. Precedence, lowest first: the SDK defaults
 * (telemetry.sdk.*, service.name unknown_service:node), a fresh service.instance.id (so replicas'
 * cumulative series never collide), OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME, then the code's own
 * options. Only these: host or process detectors would add per-process labels to every metric series.
 */
import { randomUUID } from 'node:crypto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { StartTelemetryOptions } from './config.js';

export function buildResource(options: StartTelemetryOptions): Resource {
  const explicit: Record<string, string | number | boolean> = { ...options.resourceAttributes };
  if (options.serviceName !== undefined) explicit['service.name'] = options.serviceName;
  if (options.serviceVersion !== undefined) explicit['service.version'] = options.serviceVersion;
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.instance.id': randomUUID() }))
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes(explicit));
}
