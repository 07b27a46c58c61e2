/**
 * onToolsChanged hears each list that differs, once: a server that says tools/list_changed twice for
 * one change (a tool removed and added back as it was, as the SDK's remove() then registerTool() do)
 * does not make the app hear the same list again. Over the SDK's in-memory transport, in process.
 */
import { expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { McpConnection } from '../../src/mcp/connection.js';

const noArgs = fromJsonSchema<Record<string, never>>({ type: 'object', properties: {} });

/** Resolves once `check` holds, polling the event loop (the list is read again asynchronously). */
async function settled(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

it('a list read again after two notifications for one change is heard once; a real change is heard', async () => {
  const server = new McpServer({ name: 'desk', version: '1' });
  server.registerTool('lookup', { description: 'Looks up', inputSchema: noArgs }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const heard: string[][] = [];
  const connection = await McpConnection.over(
    { transport: clientSide, network: { 'network.transport': 'pipe' }, label: 'desk' },
    { onToolsChanged: (tools) => void heard.push(tools.map((tool) => tool.name)) },
  );

  const escalate = () => server.registerTool('escalate', { description: 'Hands over', inputSchema: noArgs }, async () => ({ content: [{ type: 'text', text: 'handed over' }] }));
  const added = escalate();
  await settled(() => heard.length === 1);
  // Removed and added back as it was: two notifications, the same list.
  added.remove();
  escalate();
  await settled(() => false);
  expect(heard).toEqual([['lookup', 'escalate']]);
  expect(connection.tools().map((tool) => tool.name)).toEqual(['lookup', 'escalate']);
  await connection.close();
  await server.close();
});
