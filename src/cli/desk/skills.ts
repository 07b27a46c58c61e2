/** The tech agent's skill graph: triage -> diagnose -> fix, with a declared route on a degraded status. */
import { defineSkill, skillGraph } from '../../index.js';
import { readServiceStatus, restartService } from './tools.js';

export const triage = defineSkill({
  id: 'triage',
  description: 'Find out which service is affected and how badly.',
  body: 'Read the service status first. Move to diagnose when the cause is unclear.',
  tools: [readServiceStatus],
});

export const diagnose = defineSkill({
  id: 'diagnose',
  description: 'Confirm the failure and its cause.',
  body: 'Confirm the status. If the service is degraded the desk moves you to fix.',
  tools: [readServiceStatus],
});

export const fix = defineSkill({
  id: 'fix',
  description: 'Restart or repair the failing service.',
  body: 'Restart the service, then report what you did.',
  tools: [restartService],
});

export const techGraph = skillGraph()
  .entry(triage)
  .edge(triage, diagnose, { label: 'needs diagnosis' })
  .edge(diagnose, triage, { label: 're-triage' })
  .edge(diagnose, fix, {
    label: 'service degraded',
    when: (last) => last?.toolName === 'read_service_status' && last.result.includes('"degraded"'),
  })
  .edge(fix, diagnose, { label: 'verify fix' })
  .build();
