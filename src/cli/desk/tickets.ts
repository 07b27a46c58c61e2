/**
 * The demo's ticket mix. Each ticket carries an id and a scenario; the scripted brains read both from
 * the ticket text, so a run's behaviour depends only on the seed and the ticket, never on scheduling.
 *   billing       an invoice question: look it up, answer
 *   tech          an outage: triage -> diagnose -> (route on a degraded status) fix -> answer
 *   ping_pong     the model bounces between triage and diagnose until the loop guard trips
 *   rejected      the model keeps asking for a skill it may not reach: rejected-cap trip + escalation
 *   tool_failure  the restart tool fails; the agent reports it
 */
import { between, pick, seeded, type Random } from './random.js';

export type Scenario = 'billing' | 'tech' | 'ping_pong' | 'rejected' | 'tool_failure';

export interface Ticket {
  id: string;
  scenario: Scenario;
  text: string;
}

const MIX: [Scenario, number][] = [
  ['billing', 0.4],
  ['tech', 0.25],
  ['ping_pong', 0.12],
  ['rejected', 0.12],
  ['tool_failure', 0.11],
];

const SERVICES = ['search', 'checkout', 'payments', 'email', 'login'];

export function generateTickets(count: number, seed: number): Ticket[] {
  const random = seeded(seed);
  const tickets: Ticket[] = [];
  for (let i = 0; i < count; i++) tickets.push(makeTicket(`T-${String(i + 1).padStart(4, '0')}`, chooseScenario(random), random));
  return tickets;
}

function chooseScenario(random: Random): Scenario {
  let roll = random();
  for (const [scenario, weight] of MIX) {
    if ((roll -= weight) < 0) return scenario;
  }
  return 'billing';
}

function makeTicket(id: string, scenario: Scenario, random: Random): Ticket {
  const invoice = `INV-${between(random, 1000, 9999)}`;
  const service = scenario === 'tool_failure' ? 'payments' : pick(random, SERVICES.filter((s) => s !== 'payments'));
  const text: Record<Scenario, string> = {
    billing: `Was invoice ${invoice} charged twice? I see two payments on my card.`,
    tech: `The ${service} service is down for our team since this morning.`,
    ping_pong: `Something is off with ${service}, not sure if it is an outage or a config issue.`,
    rejected: `Please refund my last order, ${service} double-charged me and I want my money back now.`,
    tool_failure: `The ${service} service keeps timing out, please restart it.`,
  };
  return { id, scenario, text: `[ticket ${id}] [${scenario}] ${text[scenario]}` };
}

/** Reads a ticket's id and scenario back from its text (the brains use this). */
export function parseTicket(text: string): { id: string; scenario: Scenario } | undefined {
  const match = /\[ticket ([\w-]+)\] \[(\w+)\]/.exec(text);
  return match ? { id: match[1]!, scenario: match[2] as Scenario } : undefined;
}

/** A free-text ticket typed by a user (--ticket): routed by keywords, behaves like its closest scenario. */
export function customTicket(text: string): Ticket {
  const lower = text.toLowerCase();
  const scenario: Scenario = /invoice|charge|bill|refund|payment/.test(lower) ? 'billing' : 'tech';
  return { id: 'T-CUSTOM', scenario, text: `[ticket T-CUSTOM] [${scenario}] ${text}` };
}
