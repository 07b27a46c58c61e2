/**
 * The members of a runner tree, known before the run starts: each mounted agent or composition by
 * its subflow path, with the identity its span carries. The runner layout opens a member's span at
 * the member's first stage, before the member's own start event: with this directory the span
 * starts with its final name and the attributes samplers read (operation, provider, model), as the
 * GenAI conventions ask, instead of being renamed later.
 */
import { stageIds } from '../../events/index.js';
import type { RunTree, RunTreeNode } from '../../runtime/index.js';
import { boundString, ATTR_GEN_AI_AGENT_DESCRIPTION, type SemconvMode } from '../encoding/index.js';
import { agentProfileIdentity, compositionIdentity, routerDecisionIdentity } from '../genai/index.js';
import type { MemberIdentity } from '../placement/index.js';

/** Read from the run tree the runtime publishes (its member index bounds the depth). */
export function memberDirectory(tree: RunTree, semconv: SemconvMode, conversationId?: string): Record<string, MemberIdentity> {
  const directory: Record<string, MemberIdentity> = {};
  for (const node of tree.nodes) {
    if (node.modelCallMount !== undefined) {
      const profile = { id: node.id, name: node.id, conversationId, ...node.profile };
      directory[stageIds.pathKey([...node.path, node.modelCallMount])] = routerDecisionIdentity(profile, semconv);
    }
    // The top-level runner is the run span itself.
    if (node.path.length === 0) continue;
    const identity = identityOf(node, semconv, conversationId);
    if (identity && node.kind === 'agent' && node.description) identity.attributes[ATTR_GEN_AI_AGENT_DESCRIPTION] = boundString(node.description);
    if (identity) directory[node.key] = identity;
  }
  return directory;
}

/** Agents and compositions are members with spans of their own (a router's is its model call, above). */
function identityOf(node: RunTreeNode, semconv: SemconvMode, conversationId?: string): MemberIdentity | undefined {
  switch (node.kind) {
    case 'agent':
      return agentProfileIdentity({ id: node.id, name: node.name, conversationId, ...node.profile }, semconv);
    case 'llm_call':
    case 'router':
      return undefined;
    default:
      return compositionIdentity(node.kind, node.id);
  }
}
