/**
 * The MCP server span's client.address and client.port (the GenAI conventions' MCP page, server
 * span: Recommended "if applicable"; behind intermediaries, the client behind them). Only an HTTP
 * request has a client address: over stdio the peer is the process at the other end of a pipe, with
 * no address, so the page's stdio examples carry none and neither do our spans.
 *
 * A Streamable HTTP transport hands the server a web-standard Request, which knows its headers but
 * not its socket. So the client is read, as HTTP server instrumentations read it, first from the
 * forwarding headers a proxy sets (`Forwarded: for=…`, RFC 7239, then the first `X-Forwarded-For`
 * entry), else from what the app's HTTP glue knows of the socket (traceMcpServer's `clientAddress`
 * option: `{ address: req.socket.remoteAddress, port: req.socket.remotePort }`).
 */
import type { Attributes } from '@opentelemetry/api';
import { ATTR_CLIENT_ADDRESS, ATTR_CLIENT_PORT } from './attributes.js';

/** Where an HTTP request came from. */
export interface ClientAddress {
  address: string;
  port?: number;
}

export type ClientAddressOf = (request: Request) => ClientAddress | undefined;

/** Adds client.address and client.port of an HTTP request to the span's `attributes`, in place (none when neither the headers nor the app know). */
export function addClient(attributes: Attributes, request: Request, fromApp: ClientAddressOf | undefined): void {
  const client = forwardedClient(request.headers) ?? fromApp?.(request);
  if (!client?.address) return;
  attributes[ATTR_CLIENT_ADDRESS] = client.address;
  if (client.port !== undefined && Number.isInteger(client.port)) attributes[ATTR_CLIENT_PORT] = client.port;
}

/** The original client named by the forwarding headers, if they name one. */
function forwardedClient(headers: Headers): ClientAddress | undefined {
  const forwarded = headers.get('forwarded');
  if (forwarded) {
    const first = forwarded.split(',')[0]!;
    for (const pair of first.split(';')) {
      const [key, raw] = pair.split('=', 2).map((part) => part.trim());
      if (key?.toLowerCase() === 'for' && raw) return forNode(raw.replace(/^"(.*)"$/, '$1'));
    }
  }
  const first = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return first ? { address: first } : undefined;
}

/** RFC 7239 node: `192.0.2.60`, `192.0.2.60:4711`, `[2001:db8::17]:4711`; `unknown` and obfuscated `_x` name no address. */
function forNode(node: string): ClientAddress | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+|_[\w.-]+))?$/.exec(node);
  const address = match?.[1] ?? match?.[2];
  if (!address || address === 'unknown' || address.startsWith('_')) return undefined;
  const port = match?.[3] !== undefined && /^\d+$/.test(match[3]) ? Number(match[3]) : undefined;
  return port === undefined ? { address } : { address, port };
}
