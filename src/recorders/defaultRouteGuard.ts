/**
 * The route guard every agent with a skill graph gets unless it brings its own: a route recorder
 * scoped to that agent, built from the agent's SkillGraphOptions. The package entry registers it with
 * setDefaultRouteGuard (the runtime never imports recorders).
 */
import type { RouteGuardFactory } from '../runtime/index.js';
import { routeRecorder } from './routeRecorder.js';

export const defaultRouteGuard: RouteGuardFactory = (agentId, options) => routeRecorder({ ...options, agentId });
