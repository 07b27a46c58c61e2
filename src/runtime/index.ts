/**
 * The agent runtime's face to the layers above: every runtime folder's index, re-exported. The
 * folders' arrows (each index.ts states its own; test/architecture/layers.test.ts holds them as
 * RUNTIME_FOLDERS): run/ and cost/ at the bottom; providers/ and tools/ on run/; skills/ on
 * providers/, run/, tools/; agent/ on skills/, providers/, run/, cost/, tools/; compositions/ on run/;
 * routing/ on agent/, compositions/, providers/, run/, cost/.
 */
export * from './providers/index.js';
export * from './cost/index.js';
export * from './run/index.js';
export * from './tools/index.js';
export * from './agent/index.js';
export * from './skills/index.js';
export * from './compositions/index.js';
export * from './routing/index.js';
