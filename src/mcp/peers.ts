/**
 * The MCP SDK packages are optional peers: an app that never uses footprint-otel/mcp does not install
 * them. So the client SDK is loaded when a connection is first made, not when the entry is imported,
 * and a missing package is one line naming what to install (McpPeerMissingError), not a module
 * resolution stack.
 */
import type * as ClientSdk from '@modelcontextprotocol/client';
import type * as StdioSdk from '@modelcontextprotocol/client/stdio';

const MCP_CLIENT_PACKAGE = '@modelcontextprotocol/client';

/** An optional peer package footprint-otel/mcp needs is not installed. */
export class McpPeerMissingError extends Error {
  override readonly name = 'McpPeerMissingError';
  constructor(readonly packageName: string) {
    super(`footprint-otel/mcp needs the optional package ${packageName}: npm install ${packageName}`);
  }

  /** `load()`, with `packageName` itself not found (not one of its own imports) as this error. */
  static async importing<T>(packageName: string, load: () => Promise<T>): Promise<T> {
    try {
      return await load();
    } catch (error) {
      if (isMissing(error, packageName)) throw new McpPeerMissingError(packageName);
      throw error;
    }
  }
}

function isMissing(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${packageName}'`);
}

export interface McpClientSdk {
  readonly client: typeof ClientSdk;
  readonly stdio: typeof StdioSdk;
}

let clientSdk: Promise<McpClientSdk> | undefined;

/** The MCP client SDK, loaded once (a failed load is tried again next time). */
export function mcpClientSdk(): Promise<McpClientSdk> {
  clientSdk ??= Promise.all([
    McpPeerMissingError.importing(MCP_CLIENT_PACKAGE, () => import('@modelcontextprotocol/client')),
    McpPeerMissingError.importing(MCP_CLIENT_PACKAGE, () => import('@modelcontextprotocol/client/stdio')),
  ]).then(
    ([client, stdio]) => ({ client, stdio }),
    (error: unknown) => {
      clientSdk = undefined;
      throw error;
    },
  );
  return clientSdk;
}
