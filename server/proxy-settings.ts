// VS Code's proxy settings (`http.proxy`, `http.proxyStrictSSL`, `http.noProxy`) for the language
// server's process, which VS Code's own proxy support does not reach: asked of the client through
// workspace/configuration (section `http`) at start and on every configuration change, and installed
// as this process's dispatcher (core/http). Other editors without that section leave the environment's
// HTTPS_PROXY/NO_PROXY in force. It logs which proxy is used, never its credentials.

import type { Connection } from 'vscode-languageserver/node';
import {
  describeProxy,
  dispatcherForVsCodeHttp,
  setDefaultDispatcher,
  type VsCodeHttpSettings,
} from '../core/http';

export async function applyClientProxySettings(connection: Connection): Promise<void> {
  let http: VsCodeHttpSettings | undefined;
  try {
    http = (await connection.workspace.getConfiguration({ section: 'http' })) as
      | VsCodeHttpSettings
      | undefined;
  } catch {
    return; // the client has no such section: the environment's settings stay in force
  }
  const dispatcher = dispatcherForVsCodeHttp(http ?? undefined);
  setDefaultDispatcher(dispatcher);
  const proxy = dispatcher.config.httpsProxy;
  connection.console.log(
    proxy
      ? `Requests to the services go through the proxy ${describeProxy(proxy)}${dispatcher.config.noProxy?.length ? ` (not for ${dispatcher.config.noProxy.length} NO_PROXY entries)` : ''}; loopback is reached directly.`
      : 'No proxy is configured (http.proxy, HTTPS_PROXY): requests go directly.',
  );
}
