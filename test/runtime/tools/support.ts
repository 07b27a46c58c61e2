/**
 * An agent whose scripted model calls one tool once with the arguments given, then answers; what the
 * model was sent back for the call (the tool message), the tool's end event, and the tool definitions
 * the model was offered are read from the provider and the agent's events. Also a Standard Schema made
 * to answer as a test says (standardSchemaOf).
 */
import { Agent, scripted, type EventPayloads, type OutputSchema, type Tool } from '../../../src/index.js';

export interface OneCall {
  /** The tool message the model got back. */
  toolMessage: string;
  end: EventPayloads['footprint.call.tool_end'];
  /** The tools of the first model request, as the provider was given them. */
  offered: { name: string; description: string; inputSchema: Record<string, unknown> }[];
}

export async function callOnce(tool: Tool, args: Record<string, unknown>): Promise<OneCall> {
  const provider = scripted({
    replies: [{ toolCalls: [{ id: 'call-1', name: tool.name, args }] }, 'done'],
  });
  const agent = Agent.create({ provider, model: 'm-schemas', id: 'typed' }).tool(tool).build();
  const ends: EventPayloads['footprint.call.tool_end'][] = [];
  agent.on('footprint.call.tool_end', (event) => void ends.push(event.payload));
  await agent.run('go');
  const toolMessage = provider.calls[1]!.messages.find((m) => m.role === 'tool')!;
  return { toolMessage: String(toolMessage.content), end: ends[0]!, offered: (provider.calls[0]!.tools ?? []) as OneCall['offered'] };
}

/** A Standard Schema of vendor `vendor` (with Standard JSON Schema, so an agent takes it) whose validate() is `validate`. */
export function standardSchemaOf(vendor: string, validate: (value: unknown) => unknown): OutputSchema {
  const jsonSchema = () => ({ type: 'object' });
  return { '~standard': { version: 1, vendor, validate, jsonSchema: { input: jsonSchema, output: jsonSchema } } } as unknown as OutputSchema;
}
