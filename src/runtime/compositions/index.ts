/**
 * compositions/ — runners made of runners, mounted as subflows of one chart (one run, one trace),
 * with the member checks and mount options routing/ builds on. Depends on events/ and run/ only:
 * a member is any Runner.
 */
export { Composition, type CompositionOptions } from './composition.js';
export { Sequence, SequenceBuilder } from './sequence.js';
export { Parallel, ParallelBuilder, type BranchResult, type BranchError, type MergeFn } from './parallel.js';
export { Conditional, ConditionalBuilder, type Predicate, type Verdict } from './conditional.js';
export { Loop, LoopBuilder, LOOP_CEILING, type UntilFn } from './loop.js';
export {
  swarm,
  Swarm,
  DEFAULT_MAX_HANDOFFS,
  MAX_HANDOFFS_CEILING,
  type SwarmOptions,
  type PickFn,
  type PickInput,
} from './swarm.js';
export { checkMember, mountOptions } from './members.js';
export { answerKey, openLineage, recordAnswer, type LineageState } from './lineage.js';
