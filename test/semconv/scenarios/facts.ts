/**
 * What data a scenario has, per span and per metric point: the recommended, conditionally-required
 * and opt-in attributes the checker then expects present (and only those). Each scenario states its
 * facts from what it configured and what its fake model returned, never from the spans under test;
 * span attributes such as footprint.agent or footprint.iteration only tell the calls apart.
 */

export interface ChatFacts {
  /** The call failed: nothing of the response exists. */
  failed?: boolean;
  /** What the response's usage held: none at all, input/output, or also cached and reasoning counts. */
  usage?: 'none' | 'tokens' | 'tokens+cache+reasoning';
  responseId?: boolean;
  temperature?: boolean;
  maxTokens?: boolean;
  /** The provider takes the system prompt apart from the history (scripted, Anthropic; not OpenAI's wire format). */
  separateSystemPrompt?: boolean;
  tools?: boolean;
  /** The provider has a URL (server.address; server.port follows it). */
  server?: boolean;
  conversation?: boolean;
  /** The call streamed (runner.stream()): gen_ai.request.stream, and a first chunk's time once a response came. */
  streamed?: boolean;
  content: boolean;
}

export function chatAttributes(facts: ChatFacts): string[] {
  const present = ['gen_ai.request.model'];
  if (facts.conversation) present.push('gen_ai.conversation.id');
  if (facts.server) present.push('server.address');
  if (facts.temperature) present.push('gen_ai.request.temperature');
  if (facts.maxTokens) present.push('gen_ai.request.max_tokens');
  if (facts.content) present.push('gen_ai.input.messages');
  if (facts.content && facts.separateSystemPrompt) present.push('gen_ai.system_instructions');
  if (facts.content && facts.tools) present.push('gen_ai.tool.definitions');
  if (facts.streamed) present.push('gen_ai.request.stream');
  if (facts.failed) return present;
  present.push('gen_ai.response.model', 'gen_ai.response.finish_reasons');
  if (facts.streamed) present.push('gen_ai.response.time_to_first_chunk');
  if (facts.responseId) present.push('gen_ai.response.id');
  if (facts.content) present.push('gen_ai.output.messages');
  if (facts.usage !== 'none') present.push('gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens');
  if (facts.usage === 'tokens+cache+reasoning') present.push('gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.reasoning.output_tokens');
  return present;
}

export interface AgentFacts {
  failed?: boolean;
  description?: boolean;
  maxTokens?: boolean;
  temperature?: boolean;
  /** Some call of the turn reported usage (the turn's totals exist). */
  usage?: boolean;
  cacheRead?: boolean;
  tools?: boolean;
  conversation?: boolean;
  content: boolean;
}

export function agentAttributes(facts: AgentFacts): string[] {
  const present = ['gen_ai.agent.id', 'gen_ai.agent.name', 'gen_ai.request.model'];
  if (facts.description) present.push('gen_ai.agent.description');
  if (facts.conversation) present.push('gen_ai.conversation.id');
  if (facts.maxTokens) present.push('gen_ai.request.max_tokens');
  if (facts.temperature) present.push('gen_ai.request.temperature');
  if (facts.content) present.push('gen_ai.input.messages');
  if (facts.content && facts.tools) present.push('gen_ai.tool.definitions');
  if (facts.usage) present.push('gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens');
  if (facts.cacheRead) present.push('gen_ai.usage.cache_read.input_tokens');
  if (facts.failed) return present;
  present.push('gen_ai.response.finish_reasons');
  if (facts.content) present.push('gen_ai.output.messages');
  return present;
}

/** A tool call; `skill`: a read_skill call, whose requested skill is its gen_ai.skill.name (the current model's load_skill form). */
export function toolAttributes(facts: { failed?: boolean; content: boolean; skill?: boolean }): string[] {
  const present = ['gen_ai.tool.call.id', 'gen_ai.tool.type', 'gen_ai.tool.description'];
  if (facts.skill) present.push('gen_ai.skill.name');
  if (facts.content) present.push('gen_ai.tool.call.arguments');
  if (facts.content && !facts.failed) present.push('gen_ai.tool.call.result');
  return present;
}

/** A composition's span; the current model's invocation span also lists the session (gen_ai.conversation.id). */
export function workflowAttributes(facts: { conversation?: boolean }): string[] {
  return facts.conversation ? ['gen_ai.workflow.name', 'gen_ai.conversation.id'] : ['gen_ai.workflow.name'];
}

/**
 * The agent, tool and workflow metrics (the development channel's, and the current model's): every agent and composition has a
 * name, every tool is a function the agent runs. gen_ai.request.model is not applicable on the agent
 * metrics: the conventions set it only for agents with one fixed model, and an agent here changes its
 * model with its skill and its escalation brain.
 */
const AGENT_POINT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  'gen_ai.invoke_agent.duration': ['gen_ai.agent.name'],
  'gen_ai.invoke_agent.inference_calls': ['gen_ai.agent.name'],
  'gen_ai.invoke_agent.tool_calls': ['gen_ai.agent.name'],
  'gen_ai.execute_tool.duration': ['gen_ai.tool.type', 'gen_ai.agent.name'],
  'gen_ai.workflow.duration': ['gen_ai.workflow.name'],
};

/**
 * The current model's gen_ai.invocation.duration: an agent's point names the agent, a composition's
 * the workflow (each conditionally required "when the invoked entity is" one); gen_ai.request.model
 * is not applicable, as on the agent metrics above (and "SHOULD NOT" be set for workflows).
 */
const INVOCATION_POINT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  invoke_agent: ['gen_ai.agent.name'],
  invoke_workflow: ['gen_ai.workflow.name'],
};

/** A GenAI metric point: for a model call, the request model always, the response model when a response came back. */
export function pointAttributes(metric: string, facts: { failed: boolean; server?: boolean; operation?: unknown }): readonly string[] {
  if (metric === 'gen_ai.invocation.duration') return INVOCATION_POINT_ATTRIBUTES[String(facts.operation)] ?? [];
  const agentLevel = AGENT_POINT_ATTRIBUTES[metric];
  if (agentLevel) return agentLevel;
  const present = ['gen_ai.request.model'];
  if (!facts.failed) present.push('gen_ai.response.model');
  if (facts.server) present.push('server.address');
  return present;
}
