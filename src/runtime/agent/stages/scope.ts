/** The scope type every agent stage receives: the turn state plus footprintjs's scope methods. */
import type { TypedScope } from 'footprintjs';
import type { AgentState } from '../state.js';

export type AgentScope = TypedScope<AgentState>;
