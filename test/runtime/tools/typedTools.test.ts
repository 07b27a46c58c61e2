/**
 * Typed tools (issue #34 item 2): a Standard Schema inputSchema (zod 4, valibot) types `execute`'s
 * argument (checked by `npm run typecheck`: each @ts-expect-error below is a wrong field the compiler
 * must refuse), gives the model the library's JSON Schema, and validates each call at run time, the
 * library's output (defaults applied) reaching the tool. JSON Schema stays, in draft-07 and 2020-12
 * (what z.toJSONSchema and MCP SDK v2 servers emit). A schema that cannot be used is a ConfigError
 * that says what to do.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, ConfigError, scripted, tool, type Tool } from '../../../src/index.js';
import { callOnce } from './support.js';

const zodLookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up',
  inputSchema: z.object({ id: z.string().min(3), expedite: z.boolean().default(false) }),
  execute: ({ id, expedite }) => {
    // @ts-expect-error: id is a string, not a number
    const wrong: number = id;
    return `order ${id.toUpperCase()}${expedite ? ' (expedited)' : ''}${typeof wrong === 'string' ? '' : '?'}`;
  },
});

const valibotLookup = tool({
  name: 'lookup_order',
  description: 'Looks an order up',
  inputSchema: toStandardJsonSchema(v.object({ id: v.pipe(v.string(), v.minLength(3)), count: v.optional(v.number(), 1) })),
  execute: ({ id, count }) => `order ${id} x${count.toFixed(0)}`,
});

describe('the argument type comes from the schema', () => {
  it('a wrong field is a type error for zod and valibot tools alike (npm run typecheck)', () => {
    tool({
      name: 'z',
      description: 'zod',
      inputSchema: z.object({ id: z.string() }),
      // @ts-expect-error: the schema has no field "idd"
      execute: ({ idd }) => idd,
    });
    tool({
      name: 'v',
      description: 'valibot',
      inputSchema: toStandardJsonSchema(v.object({ id: v.string() })),
      // @ts-expect-error: the schema has no field "idd"
      execute: ({ idd }) => idd,
    });
    Agent.create({ provider: scripted({ replies: ['x'] }), model: 'm' }).tool({
      name: 'inline',
      description: 'zod, given to the builder',
      inputSchema: z.object({ n: z.number() }),
      // @ts-expect-error: n is a number, which has no toUpperCase
      execute: ({ n }) => n.toUpperCase(),
    });
    const typed: Tool<{ id: string; expedite: boolean }> = zodLookup;
    expect(typed.name).toBe('lookup_order');
  });
});

describe('zod 4', () => {
  it('the model is offered zod’s JSON Schema (draft-07), and a valid call reaches the tool with the defaults applied', async () => {
    const call = await callOnce(zodLookup, { id: 'a-17' });
    expect(call.offered).toEqual([
      {
        name: 'lookup_order',
        description: 'Looks an order up',
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: { id: { type: 'string', minLength: 3 }, expedite: { type: 'boolean', default: false } },
          required: ['id'],
        },
      },
    ]);
    expect([call.end.status, call.toolMessage]).toEqual(['ok', 'order A-17']);
  });

  it('an invalid call is an error result the model sees, with zod’s own messages (content: a library may quote the value, so not marked ownText)', async () => {
    const call = await callOnce(zodLookup, { id: 7, expedite: 'yes' });
    expect(call.end.status).toBe('invalid_args');
    expect(call.end.error).toEqual({
      type: 'invalid_args',
      message: 'args/id: Invalid input: expected string, received number; args/expedite: Invalid input: expected boolean, received string',
    });
    expect(call.toolMessage).toBe(`Invalid arguments for tool "lookup_order": ${call.end.error!.message}. Fix them and call again.`);
  });
});

describe('valibot (through toStandardJsonSchema)', () => {
  it('validates at run time: the default applied on a valid call, valibot’s message on an invalid one', async () => {
    const valid = await callOnce(valibotLookup, { id: 'b-22' });
    expect([valid.end.status, valid.toolMessage]).toEqual(['ok', 'order b-22 x1']);
    expect(valid.offered[0]!.inputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { id: { type: 'string', minLength: 3 }, count: { type: 'number', default: 1 } },
      required: ['id'],
    });
    const invalid = await callOnce(valibotLookup, { id: 'b' });
    expect([invalid.end.status, invalid.end.error?.message]).toEqual(['invalid_args', 'args/id: Invalid length: Expected >=3 but received 1']);
  });

  it('a bare valibot schema gives no JSON Schema: a ConfigError saying to wrap it', () => {
    const bare = { name: 'bare', description: 'valibot', inputSchema: v.object({ id: v.string() }), execute: () => 'x' };
    const build = () => Agent.create({ provider: scripted({ replies: ['x'] }), model: 'm' }).tool(bare).build();
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(
      'agent "agent": tool "bare": its inputSchema cannot be used: the valibot schema gives no JSON Schema for the model (it does not implement Standard JSON Schema, ~standard.jsonSchema): use zod 4.2 or later, arktype 2.1.28 or later, wrap a valibot schema in toStandardJsonSchema() from @valibot/to-json-schema, or give a JSON Schema',
    );
  });
});

describe('JSON Schema', () => {
  // as a server sends it: plain JSON (z.toJSONSchema's own result also carries ~standard, a Standard Schema)
  const zod2020 = JSON.parse(JSON.stringify(z.toJSONSchema(z.object({ id: z.string(), tags: z.array(z.string()).optional() })))) as Record<string, unknown>;

  it('draft 2020-12, as z.toJSONSchema emits it: builds, is sent as given, and validates', async () => {
    expect(zod2020.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const lookup: Tool = { name: 'lookup_order', description: 'Looks an order up', inputSchema: zod2020, execute: ({ id }) => `order ${id}` };
    const valid = await callOnce(lookup, { id: 'c-3', tags: ['x'] });
    expect([valid.end.status, valid.toolMessage, valid.offered[0]!.inputSchema]).toEqual(['ok', 'order c-3', zod2020]);
    const invalid = await callOnce(lookup, { id: 'c-3', tags: [1] });
    expect([invalid.end.status, invalid.end.error?.message]).toEqual(['invalid_args', 'args/tags/0 must be string']);
  });

  it("Ajv's message is the runtime's own (ownText) while it names only places the schema declares; a key only the model's data has makes it content", async () => {
    const amounts: Tool = {
      name: 'amounts',
      description: 'Amounts by holder',
      inputSchema: { type: 'object', properties: { currency: { type: 'string' }, rows: { type: 'array', items: { type: 'number' } } }, additionalProperties: { type: 'number' } },
      execute: () => 'ok',
    };
    expect((await callOnce(amounts, { currency: 7, rows: [1, 'x'] })).end.error).toEqual({ type: 'invalid_args', message: 'args/currency must be string, args/rows/1 must be number', ownText: true });
    expect((await callOnce(amounts, { 'Jane Doe': 'ten' })).end.error).toEqual({ type: 'invalid_args', message: 'args/Jane Doe must be number' });
    expect((await callOnce(amounts, { 5551234: 'ten' })).end.error).toEqual({ type: 'invalid_args', message: 'args/5551234 must be number' });
    // on the schema worker (a schema with a pattern is checked there), the same
    const patterned: Tool = { ...amounts, inputSchema: { type: 'object', additionalProperties: { type: 'string', pattern: '^[a-z]+$' } } };
    expect((await callOnce(patterned, { 'Jane Doe': 'X' })).end.error).toEqual({ type: 'invalid_args', message: 'args/Jane Doe must match pattern "^[a-z]+$"' });
  });

  it('draft-07, with its $schema or none: the tuple form of items is draft-07’s', async () => {
    const pair = { type: 'array', items: [{ type: 'string' }, { type: 'number' }] };
    const draft07: Tool = { name: 'pair', description: 'A pair', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { pair } }, execute: () => 'ok' };
    expect((await callOnce(draft07, { pair: ['a', 1] })).end.status).toBe('ok');
    expect((await callOnce({ ...draft07, inputSchema: { type: 'object', properties: { pair } } }, { pair: [1, 'a'] })).end.error?.message).toBe('args/pair/0 must be string, args/pair/1 must be number');
  });

  it('refuses, as ConfigErrors that say what to do: an unknown dialect, a type other than object, a schema that is neither', () => {
    const build = (inputSchema: unknown) => () => Agent.create({ provider: scripted({ replies: ['x'] }), model: 'm' }).tool({ name: 't', description: 't', inputSchema: inputSchema as Record<string, unknown>, execute: () => 'x' }).build();
    expect(build({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })).toThrow(
      'agent "agent": tool "t": its inputSchema cannot be used: its $schema "http://json-schema.org/draft-04/schema#" is not a dialect the validator knows: use draft-07 ("http://json-schema.org/draft-07/schema#") or 2020-12 ("https://json-schema.org/draft/2020-12/schema"), or leave $schema out (draft-07)',
    );
    expect(build({ type: 'string' })).toThrow('agent "agent": tool "t": its inputSchema must describe an object (type "object"), as tools take named arguments; it has type "string"');
    expect(build(z.string())).toThrow('agent "agent": tool "t": its inputSchema must describe an object (type "object"), as tools take named arguments; it has type "string"');
    expect(build('{"type":"object"}')).toThrow('agent "agent": tool "t": its inputSchema cannot be used: it is neither a JSON Schema (a plain object) nor a Standard Schema (zod 4, valibot, arktype)');
    expect(build({ type: 'object', required: 'id' })).toThrow(
      'agent "agent": tool "t": its inputSchema cannot be used: it is not a valid draft-07 JSON Schema: schema/required must be array',
    );
  });
});
