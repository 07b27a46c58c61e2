/** Derived signals over the runtime's events: the route recorder (an agent's skill-graph route, read back). */
export { routeRecorder, type RouteRecorder } from './routeRecorder.js';
export type { RouteRecorderOptions, RouteHop, RouteRejection, RouteTrip, RouteRun } from './types.js';
