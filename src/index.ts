/**
 * footprint-otel: the public entry. The runtime, the typed event catalog, the route recorder and the
 * OpenTelemetry bridge. Importing it registers the default instruments (tracing when an OTel SDK is
 * registered, metrics when a MeterProvider is, and the route recorder for agents with a skill graph).
 */
export * from './events/index.js';
export * from './runtime/index.js';
export * from './recorders/index.js';

import { setDefaultRouteGuard } from './runtime/index.js';
import { defaultRouteGuard } from './recorders/index.js';

setDefaultRouteGuard(defaultRouteGuard);
