/**
 * Lineage links (issue #36, docs/lineage.md) of real runs through the real SDK: for each scenario,
 * every link of every chat, execute_tool and run span with its whole attribute map, in full and in
 * semantic detail, against the lineage written down from the scenario (test/support/lineage.ts prints
 * one line per link: type, origin, slot[indexes], chars/tokens, producer → the span it points to).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../../src/mcp/index.js';
import {
  Agent,
  Conditional,
  LLMCall,
  MemoryConversationStore,
  llmRouter,
  llmSwarm,
  Loop,
  Parallel,
  registerInstrument,
  scripted,
  Sequence,
  skillGraph,
  swarm,
  tracingInstrument,
  type ScriptedReply,
} from '../../src/index.js';
import type { TraceDetail } from '../../src/otel/placement/index.js';
import { twoToolAgent } from '../support/agents.js';
import { lineageOf } from '../support/lineageLinks.js';
import { FIXTURE, SLOW_START } from '../support/mcp/world.js';
import { startSdk } from '../support/sdk.js';
import { answer, callTool, diagnoseSkill, fixSkill, pick, PRICING, triageSkill } from '../support/skills.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());
let unregister = () => {};
afterEach(() => unregister());
const traced = (detail: TraceDetail) => {
  unregister = registerInstrument(tracingInstrument({ detail }));
};

const agent = (id: string, reply: ScriptedReply, name = id) => Agent.create({ provider: scripted({ replies: [reply] }), model: `m-${id}`, id, name }).build();
const DETAILS = ['full', 'semantic'] as const;

/**
 * The skill link of a call: to the CallLLM stage span that emitted the hop its skill body came from, when
 * that is an earlier call's CallLLM (full detail, the skill stayed). A hop emitted from the call's own
 * parent gets no link: its own CallLLM when its iteration moved the skill, and in semantic detail the
 * agent's span that stands in for every hop (the parent edge joins them; the part arrays name the hop).
 */
const skillLink = (detail: TraceDetail, slot: string, size: string, hop: string, stage: string, own: string): string[] =>
  detail === 'full' && stage !== own ? [`INFORMED_BY skill ${slot} ${size} ${hop} → CallLLM ${stage}`] : [];

const roster = [
  { id: 'billing', description: 'Invoices and refunds' },
  { id: 'tech', description: 'Errors and outages' },
];

/**
 * The links of a ping-pong's first two calls (hop 1 enters triage; read_skill(diagnose), read_skill(triage)),
 * the same whether the trip stops or escalates. Each call's skill came in by a hop of its own CallLLM stage
 * (its parent): no skill link, and call 1 has no link at all.
 */
function pingPongOpening(): Record<string, string[]> {
  return {
    'execute_tool read_skill diagnose tool#1': ['CAUSED_BY_GENERATION call#1 → chat small-1 call#1'],
    'chat small-1 call#2': [
      'INFORMED_BY model_output messages[1] 27c/7t call#1 → chat small-1 call#1',
      'INFORMED_BY tool_result messages[2] 61c/16t call#1:tool#1 → execute_tool read_skill diagnose tool#1',
    ],
    'execute_tool read_skill triage tool#2': ['CAUSED_BY_GENERATION call#2 → chat small-1 call#2'],
  };
}

/** A ping-pong graph: triage <-> diagnose. */
function pingPong() {
  const [triage, diagnose] = [triageSkill(), diagnoseSkill()];
  return skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, triage).build();
}

/**
 * The scenarios and their lineage, written down from what each does. Call numbers follow the chat
 * spans' start order; every tool call of twoToolAgent() is named by its scripted id.
 */
const SCENARIOS: Record<string, { run: () => Promise<unknown>; lineage: (detail: TraceDetail) => Record<string, string[]> }> = {
  // Three iterations: lookup + weather (call 1), lookup (call 2), the answer (call 3).
  'an Agent with tools over three iterations': {
    run: () => twoToolAgent().run('hi'),
    lineage: () => TWO_TOOL_LINEAGE,
  },
  'a streamed run: the same links as run()': {
    run: async () => {
      const stream = twoToolAgent().stream('hi');
      for await (const part of stream) void part;
      return stream.result;
    },
    lineage: () => TWO_TOOL_LINEAGE,
  },
  // One call on the run's input: no producer but the run; the answer is that call's.
  LLMCall: {
    run: () => LLMCall.create({ provider: scripted({ replies: ['sum'] }), model: 'm', id: 'summarize' }).build().run('text'),
    lineage: () => ({ 'run llm_call summarize': ['answer call#1 → chat m call#1'] }),
  },
  // The editor is handed the writer's answer ("a draft", 7 chars) as its message 0.
  Sequence: {
    run: () => Sequence.create({ id: 'pipeline' }).step('draft', agent('writer', 'a draft', 'Writer')).step('edit', agent('editor', 'edited', 'Editor')).build().run('write'),
    lineage: () => ({
      'run invoke_workflow pipeline': ['answer call#2 → chat m-editor call#2'],
      'chat m-editor call#2': ['INFORMED_BY handoff messages[0] 7c/2t call#1 → chat m-writer call#1'],
    }),
  },
  // Both branches get the run's input (no link); the merge made the answer, no model call did: no answer named.
  Parallel: {
    run: () =>
      Parallel.create({ id: 'panel' })
        .branch('legal', agent('legal', 'legal view', 'Legal'))
        .branch('tech', agent('tech', 'tech view', 'Tech'))
        .merge((results) => results.map((r) => r.id).join(' '))
        .build()
        .run('q'),
    lineage: () => ({}),
  },
  // One agent instance in both branches: each branch's tool calls are caused by, and read by, its own calls.
  'Parallel: one agent with tools in two branches': {
    run: () => {
      const helper = twoToolAgent();
      return Parallel.create({ id: 'twice' }).branch('x', helper).branch('y', helper).merge((results) => results.map((r) => r.id).join(' ')).build().run('hi');
    },
    lineage: () => ({
      'execute_tool lookup c1': ['CAUSED_BY_GENERATION call#1 → chat m1 call#1'],
      'execute_tool weather c2': ['CAUSED_BY_GENERATION call#1 → chat m1 call#1'],
      'execute_tool lookup c1 (2)': ['CAUSED_BY_GENERATION call#2 → chat m1 call#2'],
      'execute_tool weather c2 (2)': ['CAUSED_BY_GENERATION call#2 → chat m1 call#2'],
      // Branch x's calls are 1, 3, 5; branch y's 2, 4, 6 (the two run side by side).
      'chat m1 call#3': renumber(TWO_TOOL_LINEAGE['chat m1 call#2'], [1, 3]),
      'chat m1 call#4': renumber(TWO_TOOL_LINEAGE['chat m1 call#2'], [2, 4]),
      'execute_tool lookup c3': ['CAUSED_BY_GENERATION call#3 → chat m1 call#3'],
      'execute_tool lookup c3 (2)': ['CAUSED_BY_GENERATION call#4 → chat m1 call#4'],
      'chat m1 call#5': renumber(TWO_TOOL_LINEAGE['chat m1 call#3'], [1, 3]),
      'chat m1 call#6': renumber(TWO_TOOL_LINEAGE['chat m1 call#3'], [2, 4]),
    }),
  },
  // The chosen branch gets the run's input; its answer is the run's.
  Conditional: {
    run: () =>
      Conditional.create({ id: 'desk' })
        .when('billing', ({ message }) => /invoice/.test(message), agent('billing', 'paid', 'Billing'))
        .otherwise('general', agent('general', 'hello', 'General'))
        .build()
        .run('about invoice 42'),
    lineage: () => ({ 'run invoke_workflow desk': ['answer call#1 → chat m-billing call#1'] }),
  },
  // The second round is handed the first's answer ("better", 6 chars).
  Loop: {
    run: () => Loop.create({ id: 'polish' }).repeat(Agent.create({ provider: scripted({ replies: ['better', 'best'] }), model: 'm-editor', id: 'editor', name: 'Editor' }).build()).times(2).build().run('text'),
    lineage: () => ({
      'run invoke_workflow polish': ['answer call#2 → chat m-editor call#2'],
      'chat m-editor call#2': ['INFORMED_BY handoff messages[0] 6c/2t call#1 → chat m-editor call#1'],
    }),
  },
  // b's turn: the run's input, then a's reply handed over (message 1).
  swarm: {
    run: () =>
      swarm({
        id: 'team',
        agents: [
          { id: 'a', runner: agent('a', 'from a', 'A') },
          { id: 'b', runner: agent('b', 'from b', 'B') },
        ],
        pick: ({ lastAgent }) => (lastAgent === undefined ? 'a' : lastAgent === 'a' ? 'b' : undefined),
      }).run('go'),
    lineage: () => ({
      'run invoke_workflow team': ['answer call#2 → chat m-b call#2'],
      'chat m-b call#2': ['INFORMED_BY handoff messages[1] 25c/7t call#1 → chat m-a call#1'],
    }),
  },
  // The router (call 1) hands billing "refund order 7" (14 chars); billing's reply is handed back to the router (call 3), which ends the swarm.
  llmSwarm: {
    run: () =>
      llmSwarm({
        id: 'desk',
        provider: scripted({ replies: [JSON.stringify({ agentId: 'billing', message: 'refund order 7' }), JSON.stringify({ message: 'All done.' })] }),
        model: 'router-m',
        agents: [
          { ...roster[0]!, runner: agent('billing', 'refunded', 'Billing') },
          { ...roster[1]!, runner: agent('tech', 'fixed', 'Tech') },
        ],
      }).run('money back'),
    lineage: () => ({
      'run invoke_workflow desk': ['answer call#2 → chat m-billing call#2'],
      'chat m-billing call#2': ['INFORMED_BY handoff messages[1] 14c/4t call#1 → chat router-m call#1'],
      'chat router-m call#3': ['INFORMED_BY handoff messages[0] 61c/16t call#2 → chat m-billing call#2'],
    }),
  },
  // The router names no agent: its own message is the swarm's answer, its call the answer's producer.
  'llmSwarm whose router answers itself': {
    run: () =>
      llmSwarm({
        id: 'desk',
        provider: scripted({ replies: [JSON.stringify({ message: 'Nothing to route.' })] }),
        model: 'router-m',
        agents: [{ ...roster[0]!, runner: agent('billing', 'refunded', 'Billing') }],
      }).run('hello'),
    lineage: () => ({ 'run invoke_workflow desk': ['answer call#1 → chat router-m call#1'] }),
  },
  // The router step reads the run's input; its answer, the message parsed from its model's JSON, is that call's output.
  'the router step': {
    run: () => {
      const router = llmRouter({ provider: scripted({ replies: [JSON.stringify({ agentId: 'billing', message: 'refund order 7', reason: 'money' })] }), model: 'router-m', agents: roster });
      return Sequence.create({ id: 'desk' }).step('triage', router.step).build().run('I want my money back');
    },
    lineage: () => ({ 'run invoke_workflow desk': ['answer call#1 → chat router-m call#1'] }),
  },
  // Run on its own, the router step is the run: its answer is its model call's.
  'the router step run on its own': {
    run: () =>
      llmRouter({ provider: scripted({ replies: [JSON.stringify({ agentId: 'billing', message: 'refund order 7' })] }), model: 'router-m', agents: roster, id: 'triage' }).step.run('I want my money back'),
    lineage: () => ({ 'run invoke_workflow triage': ['answer call#1 → chat router-m call#1'] }),
  },
  // hop 1 enters triage; read_skill(diagnose) -> hop 2; read_skill(triage) -> hop 3 (a ping-pong of 2: a trip, labelled); probe; the answer.
  'a skill graph with hops and a trip': {
    run: () =>
      Agent.create({ provider: scripted({ name: 'small', replies: [pick('diagnose'), pick('triage'), callTool('probe'), answer('Looped.')] }), model: 'small-1', id: 'desk', pricing: PRICING })
        .tool({ name: 'probe', description: 'Look', inputSchema: { type: 'object' }, execute: () => 'green' })
        .skillGraph(pingPong(), { pingPongWindow: 2 })
        .build()
        .run('The link flaps.'),
    lineage: (detail) => ({
      'run invoke_agent desk': ['answer call#4 → chat small-1 call#4'],
      ...pingPongOpening(),
      'chat small-1 call#3': [
        'INFORMED_BY tool_result messages[2] 61c/16t call#1:tool#1 → execute_tool read_skill diagnose tool#1',
        'INFORMED_BY model_output messages[3] 25c/7t call#2 → chat small-1 call#2',
        'INFORMED_BY tool_result messages[4] 65c/17t call#2:tool#2 → execute_tool read_skill triage tool#2',
      ],
      'execute_tool probe tool#3': ['CAUSED_BY_GENERATION call#3 → chat small-1 call#3'],
      // A stay is no new skill: the body's producer is still hop 3, on call 3's CallLLM span (the first hop linked: hop#1).
      'chat small-1 call#4': [
        ...skillLink(detail, 'system[0]', '46c/12t', 'hop#1', 'call-llm#5', 'call-llm#7'),
        'INFORMED_BY tool_result messages[2] 61c/16t call#1:tool#1 → execute_tool read_skill diagnose tool#1',
        'INFORMED_BY tool_result messages[4] 65c/17t call#2:tool#2 → execute_tool read_skill triage tool#2',
        'INFORMED_BY model_output messages[5] 7c/2t call#3 → chat small-1 call#3',
        'INFORMED_BY tool_result messages[6] 5c/2t call#3:tool#3 → execute_tool probe tool#3',
      ],
    }),
  },
  // The same ping-pong, escalated at the trip: call 3 runs on the strong model with the same inputs.
  escalation: {
    run: () =>
      Agent.create({ provider: scripted({ name: 'small', replies: [pick('diagnose'), pick('triage')] }), model: 'small-1', id: 'desk', pricing: PRICING })
        .skillGraph(pingPong(), { pingPongWindow: 2, onTrip: 'escalate', escalation: { provider: scripted({ name: 'strong', replies: [answer('Escalated.')] }), model: 'strong-1', afterRefusals: 3 } })
        .build()
        .run('The link flaps.'),
    lineage: () => ({
      'run invoke_agent desk': ['answer call#3 → chat strong-1 call#3'],
      ...pingPongOpening(),
      'chat strong-1 call#3': [
        'INFORMED_BY tool_result messages[2] 61c/16t call#1:tool#1 → execute_tool read_skill diagnose tool#1',
        'INFORMED_BY model_output messages[3] 25c/7t call#2 → chat small-1 call#2',
        'INFORMED_BY tool_result messages[4] 65c/17t call#2:tool#2 → execute_tool read_skill triage tool#2',
      ],
    }),
  },
  // The inner run's input is the tool call (its ancestor span: no link); the outer call 3 reads the tool's result, the inner answer.
  'a runner inside a tool': {
    run: () => {
      const inner = agent('inner', 'inner answer', 'Inner');
      return Agent.create({ provider: scripted({ replies: [{ toolCalls: [{ id: 'ask', name: 'ask_inner', args: { q: 'x' } }] }, 'outer answer'] }), model: 'm-outer', id: 'outer', name: 'Outer' })
        .tool({ name: 'ask_inner', description: 'Asks the inner agent', inputSchema: { type: 'object' }, execute: async (args: { q: string }) => (await inner.run(args.q)).text })
        .build()
        .run('go');
    },
    lineage: () => ({
      'run invoke_agent Outer': ['answer call#3 → chat m-outer call#3'],
      'execute_tool ask_inner ask': ['CAUSED_BY_GENERATION call#1 → chat m-outer call#1'],
      'run invoke_agent Inner': ['answer call#2 → chat m-inner call#2'],
      'chat m-outer call#3': ['INFORMED_BY model_output messages[1] 18c/5t call#1 → chat m-outer call#1', 'INFORMED_BY tool_result messages[2] 12c/3t call#1:ask → execute_tool ask_inner ask'],
    }),
  },
  // The second run continues the first's stored conversation: "first" (5 chars) was the first run's input (its span), "seen 1" its call's answer (test/postgres/conversationLinks.test.ts: tools, two providers).
  'a run that continues a stored conversation': {
    run: async () => {
      const store = new MemoryConversationStore();
      const chat = Agent.create({ provider: scripted({ replies: (request) => `seen ${request.messages.length}` }), model: 'm-chat', id: 'chat', name: 'Chat' }).build();
      await chat.run('first', { conversationId: 'conv-1', conversationStore: store });
      await chat.run('second', { conversationId: 'conv-1', conversationStore: store });
    },
    lineage: () => ({
      'run invoke_agent Chat': ['answer call#1 → chat m-chat call#1'],
      'run invoke_agent Chat (2)': ['answer call#2 → chat m-chat call#2'],
      'chat m-chat call#2': ['INFORMED_BY conversation messages[0] 5c/2t run#1 → run invoke_agent Chat', 'INFORMED_BY conversation messages[1] 6c/2t call#1 → chat m-chat call#1'],
    }),
  },
};

/** A lineage's lines with its calls 1 and 2 renamed to the given numbers. */
function renumber(lines: readonly string[], [first, second]: [number, number]): string[] {
  return lines.map((line) => line.replace(/call#([12])\b/g, (_, n: string) => `call#${n === '1' ? first : second}`));
}

const TWO_TOOL_LINEAGE = {
  'run invoke_agent Helper': ['answer call#3 → chat m1 call#3'],
  'execute_tool lookup c1': ['CAUSED_BY_GENERATION call#1 → chat m1 call#1'],
  'execute_tool weather c2': ['CAUSED_BY_GENERATION call#1 → chat m1 call#1'],
  // Its reply with two tool calls (46 chars: names and JSON arguments), and their results ("found invoice 42", "sunny").
  'chat m1 call#2': [
    'INFORMED_BY model_output messages[1] 46c/12t call#1 → chat m1 call#1',
    'INFORMED_BY tool_result messages[2] 16c/4t call#1:c1 → execute_tool lookup c1',
    'INFORMED_BY tool_result messages[3] 5c/2t call#1:c2 → execute_tool weather c2',
  ],
  'execute_tool lookup c3': ['CAUSED_BY_GENERATION call#2 → chat m1 call#2'],
  // Every tool result, and only the newest answer (call 1's is reachable through call 2's link).
  'chat m1 call#3': [
    'INFORMED_BY tool_result messages[2] 16c/4t call#1:c1 → execute_tool lookup c1',
    'INFORMED_BY tool_result messages[3] 5c/2t call#1:c2 → execute_tool weather c2',
    'INFORMED_BY model_output messages[4] 24c/6t call#2 → chat m1 call#2',
    'INFORMED_BY tool_result messages[5] 16c/4t call#2:c3 → execute_tool lookup c3',
  ],
};

describe.each(DETAILS)('%s detail', (detail) => {
  beforeEach(() => traced(detail));
  it.each(Object.keys(SCENARIOS))('%s: every chat, execute_tool and run span has exactly its links', async (name) => {
    const scenario = SCENARIOS[name]!;
    await scenario.run();
    expect(lineageOf(sdk.spans())).toEqual(scenario.lineage(detail));
    expect(sdk.unended()).toEqual([]);
  });
});

describe('50 concurrent runs on one Agent instance', () => {
  it.each(DETAILS)('each run has its own lineage, and no link points into another run (%s detail)', async (detail) => {
    traced(detail);
    const helper = twoToolAgent({ delayMs: 2 });
    await Promise.all(Array.from({ length: 50 }, (_, i) => helper.run(`question ${i}`)));
    const byTrace = new Map<string, ReturnType<typeof sdk.spans>>();
    for (const span of sdk.spans()) byTrace.set(span.spanContext().traceId, [...(byTrace.get(span.spanContext().traceId) ?? []), span]);
    expect(byTrace.size).toBe(50);
    for (const [traceId, spans] of byTrace) {
      expect(spans.flatMap((span) => span.links.map((link) => link.context.traceId)).filter((linked) => linked !== traceId)).toEqual([]);
      expect(lineageOf(spans)).toEqual(TWO_TOOL_LINEAGE);
    }
  });
});

describe('an MCP tool (a real server process)', () => {
  let mcp: McpConnection;
  beforeAll(async () => {
    mcp = await connectMcp({ command: process.execPath, args: [FIXTURE, 'stdio'], stderr: 'inherit' }, SLOW_START);
  });
  afterAll(() => mcp.close());

  it.each(DETAILS)('its execute_tool span is the producer of the result; the MCP client span nests under it (%s detail)', async (detail) => {
    traced(detail);
    const provider = scripted({
      replies: (request) => (request.messages.some((m) => m.role === 'tool') ? 'Shipped.' : { toolCalls: [{ id: 't1', name: 'lookup_order', args: { id: '7' } }] }),
    });
    await Agent.create({ provider, model: 'm1', id: 'desk' }).tools(mcp).build().run('Where is order 7?');
    const spans = sdk.spans();
    expect(lineageOf(spans)).toEqual({
      'run invoke_agent desk': ['answer call#2 → chat m1 call#2'],
      'execute_tool lookup_order t1': ['CAUSED_BY_GENERATION call#1 → chat m1 call#1'],
      // The reply (lookup_order and {"id":"7"}: 22 chars), the server's "order 7: shipped".
      'chat m1 call#2': [
        'INFORMED_BY model_output messages[1] 22c/6t call#1 → chat m1 call#1',
        'INFORMED_BY tool_result messages[2] 16c/4t call#1:t1 → execute_tool lookup_order t1',
      ],
    });
    const tool = spans.find((s) => s.name === 'execute_tool lookup_order')!;
    const client = spans.find((s) => s.name === 'tools/call lookup_order')!;
    expect(client.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
  });
});
