/**
 * One connection to one MCP server, over stdio (a command this process starts) or Streamable HTTP (a
 * URL): connect, list the tools, hand them out as runtime Tools, keep the list current when the server
 * says tools/list_changed, and close (which ends a stdio server it started: stdin closed, SIGTERM,
 * then SIGKILL). initialize and tools/list are traced like tools/call, each with a bounded wait.
 *
 * The connection is a runtime ToolSource: an agent given it with `.tools(connection)` reads its
 * current list at every iteration, so a tool the server adds is offered at the next model call and
 * one it removes is an unknown tool, without a rebuild. A tool keeps its Tool object while the server
 * lists it unchanged (the agent compiles a schema once per object). A tools/call whose answer came
 * after a tools/list_changed (over stdio, a tool that changed the list itself) returns once the new
 * list has been read, so the agent's next model call sees it.
 */
import { basename } from 'node:path';
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { Attributes } from '@opentelemetry/api';
import type { Tool, ToolSource } from '../runtime/index.js';
import { revisionOption, timeoutOption } from './options.js';
import { httpEndpoint, type Redactor } from './secrets.js';
import { ATTR_FOOTPRINT_MCP_TOOLS_REFUSED, METHOD_INITIALIZE, METHOD_SERVER_DISCOVER, METHOD_TOOLS_CALL, METHOD_TOOLS_LIST, ATTR_NETWORK_PROTOCOL_NAME, ATTR_NETWORK_TRANSPORT, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from './attributes.js';
import { tracedRequest, type PeerAttributes } from './clientSpan.js';
import { propagateThrough } from './clientTransport.js';
import { resolveCapture } from './content.js';
import { classify, exportedFailureText, MCP_ERROR_TYPES, McpCallError, McpConnectError } from './errors.js';
import { toRuntimeTool, type CallResult, type ListedTool, type ToolCaller } from './mcpTools.js';
import { readToolList, type RefusedTool, type ToolList } from './toolList.js';
import { mcpClientSdk, type McpClientSdk } from './peers.js';
import { serverEnvironment, type TelemetryEnv } from './serverEnv.js';

/** A server this process starts and talks to over its stdin and stdout. */
export interface StdioServer {
  command: string;
  args?: string[];
  /** The server's own variables, over the SDK's defaults (PATH, HOME, …) and `telemetryEnv`. */
  env?: Record<string, string>;
  /**
   * The app's settings the server gets over the SDK's defaults: by default every OTEL_* and FOOTPRINT_*
   * variable of this process but OTEL_SERVICE_NAME, so a traced server exports where the app does, as
   * its own service; `false` for none; a record to give these instead.
   */
  telemetryEnv?: TelemetryEnv;
  cwd?: string;
  /** The server's stderr: 'inherit' (default), 'ignore' or 'pipe'. */
  stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A server reached over Streamable HTTP. */
export interface HttpServer {
  url: string | URL;
  headers?: Record<string, string>;
}

export interface McpConnectOptions {
  /**
   * footprint.mcp.server on metrics, and the name in error messages (default: the server's own name
   * when it is a plain one, up to 64 letters, digits and `._@/-`; else the command's file name or the URL's host).
   */
  name?: string;
  /** The longest one tools/call may take (default 30 000 ms; Infinity: no limit); past it the model gets a timeout error. */
  callTimeoutMs?: number;
  /** The longest connecting (initialize and the first tools/list) may take (default 10 000 ms; Infinity: no limit). */
  connectTimeoutMs?: number;
  /** Tool arguments and results on the MCP client spans (default: the GenAI content-capture variable). */
  captureContent?: boolean;
  /**
   * Called with the new tools after the server said tools/list_changed and the list was read again (`[]` once
   * the connection is lost). What it throws is a process warning (FOOTPRINT_MCP_ON_TOOLS_CHANGED_FAILED).
   */
  onToolsChanged?(tools: Tool[]): void;
  /**
   * '2026-07-28': speak the stateless MCP revision (the SDK's versionNegotiation pin): a
   * `server/discover` handshake instead of initialize, no session; a server that does not speak it
   * fails the connect. Default: the 2025 revisions, negotiated with initialize.
   */
  revision?: '2026-07-28';
}

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export class McpConnection implements ToolSource {
  private listed = new Map<string, { listed: ListedTool; tool: Tool }>();
  private refusedTools: readonly RefusedTool[] = [];
  private closed = false;
  private lostConnection = false;
  /** The tools/list read the last tools/list_changed started, while it runs. */
  private relisting?: Promise<void>;
  /** A tools/list_changed came while a read was under way: read once more after it. */
  private changedAgain = false;

  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly caller: ToolCaller,
    private readonly connectTimeoutMs: number,
    private readonly onToolsChanged?: (tools: Tool[]) => void,
  ) {}

  /**
   * Connects, initialises and lists the tools; a server that cannot be reached or listed throws
   * McpConnectError, a missing @modelcontextprotocol/client McpPeerMissingError.
   */
  static async connect(server: StdioServer | HttpServer, options: McpConnectOptions = {}): Promise<McpConnection> {
    return McpConnection.over(makeTransport(await mcpClientSdk(), server), options);
  }

  /**
   * @internal A connection over a transport made elsewhere, with the network attributes it has
   * (bench/mcp.ts: two channels to one server process). connect() is this over stdio or HTTP.
   */
  static async over({ transport, network, label, redactor }: MadeTransport, options: McpConnectOptions = {}): Promise<McpConnection> {
    const revision = revisionOption(options.revision);
    const client = new (await mcpClientSdk()).client.Client(
      { name: 'footprint-otel', version: '0.1.0' },
      revision === undefined ? undefined : { versionNegotiation: { mode: { pin: revision } } },
    );
    const peer: PeerAttributes = {
      server: options.name ?? label,
      network,
      sessionId: () => transport.sessionId,
      protocolVersion: () => client.getNegotiatedProtocolVersion(),
      redact: (text) => redactor?.redact(text) ?? text,
    };
    // The stdio SDK drops a reply over its line limit and closes the connection: the call it answered
    // then fails as too large, not as a closed connection or a timeout.
    let tooLarge: string | undefined;
    client.onerror = (error: Error) => {
      const limit = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message)?.[1];
      if (limit !== undefined) tooLarge = `the reply is larger than the ${limit} bytes one stdio message may have`;
    };
    let connection: McpConnection | undefined;
    // The server went away (a stdio server that exited, a closed session): its tools are no longer offered.
    client.onclose = () => connection?.lost();
    const caller: ToolCaller = {
      peer,
      capture: resolveCapture(options.captureContent),
      timeoutMs: timeoutOption('callTimeoutMs', options.callTimeoutMs, DEFAULT_CALL_TIMEOUT_MS),
      // A lost connection's tools are not listed any more, but a call of one held from before is told the connection closed.
      offers: (name) => connection === undefined || connection.isLost || connection.listed.has(name),
      listRead: () => connection?.relisting,
      call: (name, args, requestOptions) => {
        // A tool held from before the connection was lost: the SDK's own words ("Not connected") name no failure type.
        if (connection?.isLost) return Promise.reject(new McpCallError(MCP_ERROR_TYPES.connectionClosed, `${METHOD_TOOLS_CALL} failed: the connection to the server is closed`, METHOD_TOOLS_CALL));
        return (client.callTool({ name, arguments: args }, requestOptions) as Promise<CallResult>).catch((error: unknown) => {
          const reason = tooLarge;
          tooLarge = undefined; // the call it answered fails as too large once; later ones find the connection closed
          throw reason === undefined ? error : new McpCallError(MCP_ERROR_TYPES.tooLarge, `${METHOD_TOOLS_CALL} failed: ${reason}`, METHOD_TOOLS_CALL);
        });
      },
    };
    const connectTimeoutMs = timeoutOption('connectTimeoutMs', options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
    connection = new McpConnection(client, transport, caller, connectTimeoutMs, options.onToolsChanged);
    try {
      await tracedRequest({
        method: revision === undefined ? METHOD_INITIALIZE : METHOD_SERVER_DISCOVER,
        peer,
        capture: caller.capture,
        send: async () => {
          try {
            await withDeadline(client.connect(propagateThrough(transport), { timeout: connectTimeoutMs }), connectTimeoutMs);
          } catch (error) {
            throw connectError(error, peer, caller.capture);
          }
          // named before initialize's span ends, so every request of the connection carries the same name
          if (!options.name) peer.server = plainName(client.getServerVersion()?.name) ?? label;
        },
      });
      await connection.refresh().catch((error: unknown) => {
        throw connectError(error, peer, caller.capture);
      });
    } catch (error) {
      await connection.close();
      throw error;
    }
    client.setNotificationHandler('notifications/tools/list_changed', () => connection.listChanged());
    return connection;
  }

  /** The server's name (footprint.mcp.server). */
  get name(): string {
    return this.caller.peer.server;
  }

  /** The tools the server lists now, as runtime Tools: all of them or the ones named (an unknown name throws). */
  tools(names?: readonly string[]): Tool[] {
    if (!names) return [...this.listed.values()].map((entry) => entry.tool);
    return names.map((name) => {
      const entry = this.listed.get(name);
      if (!entry) throw new McpConnectError('unknown_tool', `MCP server "${this.name}" has no tool "${name}" (it has: ${[...this.listed.keys()].join(', ')})`, this.name);
      return entry.tool;
    });
  }

  /**
   * A ToolSource of the named tools only, read live like the connection: each one the server lists
   * at the time (a name the server drops is left out until it lists it again). Every name must be
   * listed now (an unknown name throws, as for tools(names)).
   */
  select(names: readonly string[]): ToolSource {
    this.tools(names);
    const wanted = new Set(names);
    return { tools: () => this.tools().filter((tool) => wanted.has(tool.name)) };
  }

  /**
   * The tools the server lists that are not offered, each with why (an inputSchema that cannot be
   * used, such as one whose type is not "object"), as of the last list read. Each newly refused tool is
   * also a process warning (FOOTPRINT_MCP_TOOL_REFUSED) and is named on the tools/list span.
   */
  get refused(): readonly RefusedTool[] {
    return this.refusedTools;
  }

  /** Reads the tool list again (traced tools/list): each tool offered or refused on its own. */
  async refresh(): Promise<Tool[]> {
    const result = await tracedRequest<ToolList>({
      method: METHOD_TOOLS_LIST,
      peer: this.caller.peer,
      capture: this.caller.capture,
      send: () => readToolList(this.client, this.connectTimeoutMs),
      resultAttributes: refusedAttributes,
    });
    this.warnRefused(result.refused);
    const previous = this.listed;
    this.listed = new Map(
      result.tools.map((t) => {
        const listed: ListedTool = t;
        const known = previous.get(t.name);
        const tool = known && sameListing(known.listed, listed) ? known.tool : toRuntimeTool(listed, this.caller);
        return [t.name, { listed, tool }];
      }),
    );
    return this.tools();
  }

  private warnRefused(refused: RefusedTool[]): void {
    const before = new Set(this.refusedTools.map(refusalText));
    this.refusedTools = refused;
    for (const tool of refused) {
      if (before.has(refusalText(tool))) continue;
      process.emitWarning(`footprint-otel: MCP server "${this.name}" lists ${refusalText(tool)}; it is left out, the server's other tools are offered`, { code: 'FOOTPRINT_MCP_TOOL_REFUSED' });
    }
  }

  /** True once the connection closed without close() (the server exited or went away). */
  get isLost(): boolean {
    return this.lostConnection;
  }

  /**
   * The server went away without close(): none of its tools is offered any more (a model that calls
   * one gets an unknown tool), a tool held from before fails as connection_closed, and onToolsChanged
   * hears the empty list. close() still ends what the connection started.
   */
  private lost(): void {
    if (this.closed || this.lostConnection) return;
    this.lostConnection = true;
    const offered = this.listed.size > 0;
    this.listed.clear();
    if (offered) this.toolsChanged([]);
  }

  /**
   * Tells onToolsChanged. It runs inside the SDK's handlers (a stdio server's exit, a notification),
   * where a throw would be an uncaught exception that ends the app: what it throws is a process
   * warning (FOOTPRINT_MCP_ON_TOOLS_CHANGED_FAILED) instead.
   */
  private toolsChanged(tools: Tool[]): void {
    try {
      this.onToolsChanged?.(tools);
    } catch (error) {
      process.emitWarning(`footprint-otel: onToolsChanged of MCP server "${this.name}" threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, {
        code: 'FOOTPRINT_MCP_ON_TOOLS_CHANGED_FAILED',
      });
    }
  }

  /**
   * Ends the connection; a stdio server this connection started is stopped, a Streamable HTTP session
   * it started is ended (DELETE). Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listed.clear();
    await this.endSession();
    await this.client.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }

  /**
   * Streamable HTTP: ends the session this connection started with a DELETE, as the transport's
   * specification asks of a client that no longer needs it, so the server frees it now rather than
   * keeping it until it expires (if ever). Within SESSION_END_MS (a server that does not answer
   * does not hold close() up); a failure or a 405 (a server that ends sessions itself) changes nothing.
   */
  private async endSession(): Promise<void> {
    const transport = this.transport as Transport & { terminateSession?: () => Promise<void> };
    if (this.lostConnection || transport.sessionId === undefined || typeof transport.terminateSession !== 'function') return;
    await withDeadline(transport.terminateSession(), Math.min(this.connectTimeoutMs, SESSION_END_MS)).catch(() => undefined);
  }

  /** The pid of the stdio server this connection started (undefined over HTTP or once it exited). */
  get pid(): number | undefined {
    return 'pid' in this.transport ? ((this.transport as { pid: number | null }).pid ?? undefined) : undefined;
  }

  /** tools/list_changed: read the list again, once more if the server changed it again meanwhile. */
  private listChanged(): void {
    if (this.relisting) {
      this.changedAgain = true;
      return;
    }
    this.relisting = (async () => {
      do {
        this.changedAgain = false;
        await this.refreshQuietly();
      } while (this.changedAgain && !this.closed);
    })().finally(() => {
      this.relisting = undefined;
    });
  }

  private async refreshQuietly(): Promise<void> {
    try {
      const before = this.tools();
      const tools = await this.refresh();
      // A server may say list_changed more than once for one change (a tool removed and added back):
      // onToolsChanged hears a list only when it differs. A tool listed unchanged keeps its object.
      if (tools.length !== before.length || tools.some((tool, i) => tool !== before[i])) this.toolsChanged(tools);
    } catch {
      // The failed tools/list is on its span; the previous list stays in use.
    }
  }
}

const MAX_REFUSED_ON_SPAN = 50;

/** The longest close() waits for the server to answer the DELETE that ends an HTTP session. */
const SESSION_END_MS = 5_000;

/** footprint.mcp.tools.refused of a list that refused tools (at most MAX_REFUSED_ON_SPAN of them). */
function refusedAttributes(list: ToolList): Attributes | undefined {
  if (list.refused.length === 0) return undefined;
  return { [ATTR_FOOTPRINT_MCP_TOOLS_REFUSED]: list.refused.slice(0, MAX_REFUSED_ON_SPAN).map(refusalText) };
}

function refusalText(tool: RefusedTool): string {
  return `tool ${JSON.stringify(tool.name)}: ${tool.reason}`;
}

function sameListing(a: ListedTool, b: ListedTool): boolean {
  return a.description === b.description && JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema);
}

/**
 * Why connecting failed, typed: a server not there (or gone while connecting) is 'unavailable', a
 * 401/403 'unauthorized' with its status. The message is redacted of the connection's secrets, and
 * without content capture holds none of the server's own words (its initialize span's status repeats it).
 */
function connectError(error: unknown, peer: PeerAttributes, capture: boolean): McpConnectError {
  if (error instanceof McpConnectError) return error;
  const failure = classify(error);
  const gone = failure.type === MCP_ERROR_TYPES.other || failure.type === MCP_ERROR_TYPES.connectionClosed;
  const message = exportedFailureText(failure, peer.redact(failure.message), capture);
  return new McpConnectError(gone ? MCP_ERROR_TYPES.unavailable : failure.type, `MCP server "${peer.server}": ${message}`, peer.server, failure.status);
}

/**
 * A server's self-declared name when it is a plain one (footprint.mcp.server is a metric label): up
 * to 64 letters, digits and `._@/-`; anything else (an escape sequence, 300 characters) is not used.
 */
function plainName(name: string | undefined): string | undefined {
  return name !== undefined && /^[\w.@/-]{1,64}$/.test(name) ? name : undefined;
}

/** A transport, the network attributes of its spans, the server's name until it says its own, and the redactor of its secrets. */
export interface MadeTransport {
  transport: Transport;
  network: Attributes;
  label: string;
  redactor?: Redactor;
}

function makeTransport({ client, stdio }: McpClientSdk, server: StdioServer | HttpServer): MadeTransport {
  if ('command' in server) {
    const transport = new stdio.StdioClientTransport({
      command: server.command,
      args: server.args,
      env: serverEnvironment(stdio.getDefaultEnvironment(), server.telemetryEnv, server.env),
      cwd: server.cwd,
      stderr: server.stderr ?? 'inherit',
    });
    return { transport, network: { [ATTR_NETWORK_TRANSPORT]: 'pipe' }, label: basename(server.command) };
  }
  const { url, headers, redactor } = httpEndpoint(server);
  const transport = new client.StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return {
    transport,
    network: { [ATTR_NETWORK_TRANSPORT]: 'tcp', [ATTR_NETWORK_PROTOCOL_NAME]: 'http', [ATTR_SERVER_ADDRESS]: url.hostname, [ATTR_SERVER_PORT]: port },
    label: url.host,
    redactor,
  };
}

/** The work, or a timeout rejection past `ms` (a stdio server that never answers initialize). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'REQUEST_TIMEOUT' })), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function connectMcp(server: StdioServer | HttpServer, options?: McpConnectOptions): Promise<McpConnection> {
  return McpConnection.connect(server, options);
}
