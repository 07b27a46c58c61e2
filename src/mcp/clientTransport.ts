/**
 * The client half of propagation, at the one place every outgoing message passes: the transport's
 * send(). Each request and notification leaves with the active context in params._meta (so a server
 * parents on the MCP client span, for the SDK's own requests such as initialize's notification too),
 * and a request sent while an MCP client span is active stamps its JSON-RPC id on that span.
 */
import { context } from '@opentelemetry/api';
import type { Transport } from '@modelcontextprotocol/client';
import { ATTR_JSONRPC_REQUEST_ID } from './attributes.js';
import { activeMcpClientSpan } from './clientSpan.js';
import { withContextInMeta } from './meta.js';

export function propagateThrough<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!('method' in message)) return send(message, options);
    const active = context.active();
    const span = activeMcpClientSpan(active);
    if (span && 'id' in message && message.id !== null && message.id !== undefined) {
      span.setAttribute(ATTR_JSONRPC_REQUEST_ID, String(message.id));
    }
    return send(withContextInMeta(message, active), options);
  };
  return transport;
}
