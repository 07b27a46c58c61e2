/**
 * The Resource handed to NodeSDK and the detectors it runs. NodeSDK merges, lowest first: this
 * resource (the SDK defaults, a fresh service.instance.id so replicas' cumulative series never
 * collide, the code's serviceVersion and resourceAttributes), then what the detectors find (so
 * OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over code), then the serviceName option.
 * Detectors: OTEL_NODE_RESOURCE_DETECTORS when set (NodeSDK reads it); otherwise only the environment
 * detector, since host and process attributes (pid, command line) say nothing about agent runs and
 * would ride along on every exported span and metric.
 */
import { randomUUID } from 'node:crypto';
import { getStringFromEnv } from '@opentelemetry/core';
import { defaultResource, envDetector, resourceFromAttributes, type Resource, type ResourceDetector } from '@opentelemetry/resources';
import { semconv } from '../otel/index.js';
import type { StartTelemetryOptions } from './config.js';

export interface ResourceSetup {
  resource: Resource;
  /** Undefined: NodeSDK reads OTEL_NODE_RESOURCE_DETECTORS. */
  resourceDetectors?: ResourceDetector[];
  serviceName?: string;
}

export function resourceSetup(options: StartTelemetryOptions): ResourceSetup {
  const configured: Record<string, string | number | boolean> = { [semconv.ATTR_SERVICE_INSTANCE_ID]: randomUUID(), ...options.resourceAttributes };
  if (options.serviceVersion !== undefined) configured[semconv.ATTR_SERVICE_VERSION] = options.serviceVersion;
  return {
    resource: defaultResource().merge(resourceFromAttributes(configured)),
    ...(getStringFromEnv('OTEL_NODE_RESOURCE_DETECTORS') === undefined ? { resourceDetectors: [envDetector] } : {}),
    ...(options.serviceName === undefined ? {} : { serviceName: options.serviceName }),
  };
}
