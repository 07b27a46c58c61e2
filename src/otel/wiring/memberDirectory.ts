/**
 * The members of a runner tree, known before the run starts: each mounted agent or composition by
 * its subflow path, with the identity its span carries. The runner layout opens a member's span at
 * the member's first stage, before the member's own start event: with this directory the span
 * starts with its final name and the attributes samplers read (operation, provider, model), as the
 * GenAI conventions ask, instead of being renamed later.
 */
import { stageIds } from '../../events/index.js';
import type { Runner } from '../../runtime/index.js';
import { boundString, ATTR_GEN_AI_AGENT_DESCRIPTION } from '../encoding/index.js';
import { agentProfileIdentity, compositionIdentity, routerDecisionIdentity } from '../genai/index.js';
import type { MemberIdentity } from '../placement/index.js';

/** How deep the directory follows mounts (runner trees are shallow; this bounds a pathological one). */
const MAX_DEPTH = 16;

export function memberDirectory(root: Runner, conversationId?: string): Record<string, MemberIdentity> {
  const directory: Record<string, MemberIdentity> = {};
  const visit = (runner: Runner, path: readonly string[]): void => {
    if (path.length >= MAX_DEPTH) return;
    const modelCall = runner.modelCallMount();
    if (modelCall !== undefined) {
      const profile = { id: runner.id, name: runner.id, conversationId, ...runner.profile() };
      directory[stageIds.pathKey([...path, modelCall])] = routerDecisionIdentity(profile);
    }
    for (const { mountId, runner: member, description } of runner.members()) {
      const memberPath = [...path, mountId];
      const identity = identityOf(member, conversationId);
      if (identity && member.kind === 'agent' && description) identity.attributes[ATTR_GEN_AI_AGENT_DESCRIPTION] = boundString(description);
      if (identity) directory[stageIds.pathKey(memberPath)] = identity;
      visit(member, memberPath);
    }
  };
  visit(root, []);
  return directory;
}

/** Agents and compositions are members with spans of their own (a router's is its model call, above). */
function identityOf(runner: Runner, conversationId?: string): MemberIdentity | undefined {
  switch (runner.kind) {
    case 'agent':
      return agentProfileIdentity({ id: runner.id, name: runner.name, conversationId, ...runner.profile() });
    case 'llm_call':
    case 'router':
      return undefined;
    default:
      return compositionIdentity(runner.kind, runner.id);
  }
}
