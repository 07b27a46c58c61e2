/** Derived signals over the runtime's events: the route recorder and its loop guards. */
export { routeRecorder, type RouteRecorder } from './routeRecorder.js';
export { defaultRouteGuard } from './defaultRouteGuard.js';
export type { OnTrip, RouteRecorderOptions, RouteHop, RouteRejection, RouteTrip, RouteRun, Spend } from './types.js';
