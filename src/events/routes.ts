/**
 * The route format of EventMeta.route: one 'composition>member' segment per routing composition
 * (Conditional, swarm) above a member, outermost first, joined by '/' ('desk>tech/triage>billing').
 * Written here once: the run's member index stamps it on every event, and the decision metric labels
 * a decision with the route its chosen member then runs under, so cost by route joins decisions
 * by route exactly.
 */

/** The route of `member`, chosen by `compositionId`, under the route in force for the composition. */
export function routeWithin(routeInForce: string, compositionId: string, member: string): string {
  const segment = `${compositionId}>${member}`;
  return routeInForce === '' ? segment : `${routeInForce}/${segment}`;
}
