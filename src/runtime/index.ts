/** The agent runtime: providers, LLMCall, Agent, compositions, routing, skills, cost, run machinery. */
export * from './providers/index.js';
export * from './cost/index.js';
export * from './run/index.js';
export * from './tools/index.js';
export * from './agent/index.js';
export * from './skills/index.js';
export * from './compositions/index.js';
export * from './routing/index.js';
