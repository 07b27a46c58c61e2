/**
 * The scope types of the agent's stages: the scope every stage receives (the turn state plus
 * footprintjs's scope methods), and what their helpers need of it (emit, env, input), which a stage
 * hands them with its env read once (run/context.ts OnceEnvScope).
 */
import type { TypedScope } from 'footprintjs';
import type { EmitScope } from '../../../events/index.js';
import type { EnvScope } from '../../run/index.js';
import type { AgentState } from '../state.js';

export type AgentScope = TypedScope<AgentState>;

export type StageScope = EnvScope & EmitScope;
