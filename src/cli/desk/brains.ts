/**
 * The desk's scripted model brains: deterministic, seeded functions of the request that behave like a
 * model following the ticket's scenario. Usage and latency are drawn from a PRNG seeded by the run
 * seed, the ticket and the step, so the same seed always gives the same runs and costs.
 */
import { messageText, type LLMMessage, type LLMRequest, type ScriptedReply } from '../../index.js';
import { between, hash, seeded } from './random.js';
import { parseTicket, type Scenario } from './tickets.js';

export interface BrainContext {
  ticketId: string;
  scenario: Scenario;
  skill?: string;
  step: number;
  lastTool?: LLMMessage;
  /** The last tool result's text ('' before any). */
  lastToolText: string;
  lastToolName?: string;
  text: string;
}

export function readContext(request: LLMRequest): BrainContext {
  const first = messageText(request.messages.find((m) => m.role === 'user')?.content ?? '');
  const ticket = parseTicket(first) ?? { id: 'T-UNKNOWN', scenario: 'tech' as Scenario };
  const skill = /## Current skill: ([\w-]+)/.exec(request.systemPrompt ?? '')?.[1];
  const assistants = request.messages.filter((m) => m.role === 'assistant');
  const tools = request.messages.filter((m) => m.role === 'tool');
  const lastTool = tools.at(-1);
  const lastCall = assistants.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === lastTool?.toolCallId);
  return { ticketId: ticket.id, scenario: ticket.scenario, skill, step: assistants.length, lastTool, lastToolText: messageText(lastTool?.content ?? ''), lastToolName: lastCall?.name, text: first };
}

/** Adds seeded usage and latency to a reply. */
export function withUsage(seed: number, ctx: BrainContext, salt: string, reply: Exclude<ScriptedReply, string>): ScriptedReply {
  const random = seeded(hash(`${seed}:${ctx.ticketId}:${salt}:${ctx.step}`));
  return {
    ...reply,
    usage: { input: 350 + 160 * ctx.step + between(random, 0, 400), output: between(random, 15, 160) },
    delayMs: between(random, 4, 24),
  };
}

const serviceOf = (text: string) => /The (\w+) service|with (\w+)|, (\w+) double/.exec(text)?.slice(1).find(Boolean) ?? 'search';

/**
 * A runaway billing agent (demo --runaway) looks the invoice up this many times per model call, for
 * RUNAWAY_STEPS calls, then answers: 24 tool calls in 4 model calls, inside its iteration cap of 4, and
 * nothing a loop guard watches (no skill graph), so only the per-invocation tool-call count shows it.
 */
export const RUNAWAY_LOOKUPS_PER_CALL = 8;
export const RUNAWAY_STEPS = 3;

export function billingBrain(seed: number, options: { runaway?: boolean } = {}) {
  return (request: LLMRequest): ScriptedReply => {
    const ctx = readContext(request);
    const invoice = /INV-\d+/.exec(ctx.text)?.[0] ?? 'INV-0000';
    const lookup = { name: 'lookup_invoice', args: { id: invoice } };
    if (options.runaway && ctx.step < RUNAWAY_STEPS) {
      return withUsage(seed, ctx, 'billing', { toolCalls: Array.from({ length: RUNAWAY_LOOKUPS_PER_CALL }, () => lookup) });
    }
    if (ctx.step === 0) return withUsage(seed, ctx, 'billing', { toolCalls: [lookup] });
    const found = ctx.lastToolText.includes('"found":true');
    const twice = ctx.lastToolText.includes('"payments":2');
    const content = !found
      ? `I could not find ${invoice}; please check the number.`
      : twice
        ? `${invoice} was charged twice; the duplicate will be refunded within 5 days.`
        : `${invoice} was charged once; the second line is a pending authorisation.`;
    return withUsage(seed, ctx, 'billing', { content });
  };
}

/** The tech agent's everyday brain (a small model). */
export function techBrain(seed: number) {
  return (request: LLMRequest): ScriptedReply => {
    const ctx = readContext(request);
    const service = serviceOf(ctx.text);
    const reply = (r: Exclude<ScriptedReply, string>) => withUsage(seed, ctx, 'tech', r);
    const readSkill = (id: string) => reply({ toolCalls: [{ name: 'read_skill', args: { id } }] });
    if (ctx.scenario === 'ping_pong') return readSkill(ctx.skill === 'diagnose' ? 'triage' : 'diagnose');
    if (ctx.scenario === 'rejected') return readSkill('refunds');
    const status = { toolCalls: [{ name: 'read_service_status', args: { service } }] };
    switch (ctx.skill) {
      case 'triage':
        return ctx.lastToolName === 'read_service_status' ? readSkill('diagnose') : reply(status);
      case 'diagnose':
        if (ctx.lastToolName === 'read_service_status' && ctx.lastToolText.includes('"healthy"')) {
          return reply({ content: `${service} looks healthy now; I will keep watching it.` });
        }
        return reply(status);
      case 'fix':
        if (ctx.lastToolName === 'restart_service') {
          return reply({
            content: ctx.lastToolText.includes('failed')
              ? `I could not restart ${service} (${ctx.lastToolText}). An operator has to do it.`
              : `Restarted ${service}; error rates are dropping.`,
          });
        }
        return reply({ toolCalls: [{ name: 'restart_service', args: { service } }] });
      default:
        return reply(status);
    }
  };
}

/** The escalation brain (a stronger model): checks once, then resolves. */
export function seniorBrain(seed: number) {
  return (request: LLMRequest): ScriptedReply => {
    const ctx = readContext(request);
    const service = serviceOf(ctx.text);
    const reply = (r: Exclude<ScriptedReply, string>) => withUsage(seed, ctx, 'senior', r);
    if (ctx.scenario === 'rejected') {
      return reply({ content: 'Refunds are handled by billing; I have opened a refund request for you.' });
    }
    if (ctx.lastToolName !== 'read_service_status') {
      return reply({ toolCalls: [{ name: 'read_service_status', args: { service } }] });
    }
    return reply({ content: `Senior review: ${service} is degraded by a bad config push; rolled back.` });
  };
}

/** The desk router: picks billing or tech from the ticket; after an agent replied, it closes the ticket. */
export function routerBrain(seed: number) {
  return (request: LLMRequest): ScriptedReply => {
    const ctx = readContext(request);
    const reply = (decision: Record<string, string>) => withUsage(seed, ctx, 'router', { content: JSON.stringify(decision) });
    const after = /^The user asked:/.test(ctx.text) ? /Agent "(\w+)" replied:\n([\s\S]*)$/.exec(ctx.text) : null;
    if (after) return reply({ message: after[2]!, reason: `${after[1]} resolved the ticket` });
    if (ctx.scenario === 'billing') return reply({ agentId: 'billing', message: ctx.text, reason: 'invoice question' });
    return reply({ agentId: 'tech', message: ctx.text, reason: 'service problem' });
  };
}
