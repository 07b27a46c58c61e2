/**
 * The documentation's TypeScript examples (README.md and the pages of docs/ that show the API) as
 * files of a consumer project: every ```ts block, each its own module, plus the declarations of what
 * the examples take from the app around them (its database, its checkpoint store, its other runners
 * and tools), so each block is checked as written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function readmeTypeScriptBlocks(readme: string): string[] {
  return [...readFileSync(readme, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** One file per block, named for its page; `export {}` keeps a block without imports a module of its own. */
export function exampleFiles(page: string, blocks: string[]): Record<string, string> {
  const stem = path.basename(page, '.md').toLowerCase();
  return Object.fromEntries(blocks.map((block, index) => [`${stem}-${String(index + 1).padStart(2, '0')}.ts`, `${block}\nexport {};\n`]));
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

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The pages whose examples are checked, with how many ```ts blocks each holds (a block lost in an edit fails). */
export const DOCUMENTED_PAGES: Record<string, number> = {
  [path.join(ROOT, 'README.md')]: 1,
  [path.join(ROOT, 'docs', 'api.md')]: 13,
  [path.join(ROOT, 'docs', 'local-models.md')]: 1,
};
