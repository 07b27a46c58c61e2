/**
 * The README's TypeScript examples as files of a consumer project: every ```ts block, each its own
 * module, plus the declarations of what the examples take from the app around them (its database,
 * its checkpoint store, its other runners and tools), so each block is checked as written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function readmeTypeScriptBlocks(readme: string): string[] {
  return [...readFileSync(readme, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** One file per block; `export {}` keeps a block without imports a module of its own. */
export function exampleFiles(blocks: string[]): Record<string, string> {
  return Object.fromEntries(blocks.map((block, index) => [`readme-${String(index + 1).padStart(2, '0')}.ts`, `${block}\nexport {};\n`]));
}

/** The app's own objects the examples use without defining them. */
export const APP_DECLARATIONS = `import type { Checkpoint, LLMProvider, Runner, Tool } from 'footprint-otel';
import type { FlowChartExecutor } from 'footprintjs';

declare global {
  const db: { invoice(id: string): Promise<string> };
  const store: { save(checkpoint: Checkpoint): Promise<void>; load(): Promise<Checkpoint> };
  const provider: LLMProvider;
  const agent: Runner;
  const drafter: Runner;
  const reviewer: Runner;
  const agentA: Runner;
  const agentB: Runner;
  const editor: Runner;
  const billing: Runner;
  const tech: Runner;
  const status: Tool;
  const restart: Tool;
  function page(...details: unknown[]): void;
  const chart: ConstructorParameters<typeof FlowChartExecutor>[0];
  const input: unknown;
}
export {};
`;

export const README = path.resolve(import.meta.dirname, '../../../README.md');
