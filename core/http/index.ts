// core/http: the one HTTP layer of the three service clients (CVS, eNotices2, agri-food).
//   failure.ts       the error model: ServiceError (service, kind, fields) and TransportError
//   service-text.ts  the one sanitizer of text that comes from a service, and the decoding of an XML
//                    answer's bytes (xmlAnswerText)
//   proxy.ts         proxy routing (env or VS Code's http settings), loopback always direct
//   transport.ts     httpRequest: timeout, capped body, redirects as errors, failures classified
//   undici.ts        undici, required on the first request (offline commands never load it)
// Editor-free: no `vscode` import, no logging. API keys and proxy credentials never reach a message.

export {
  ENVIRONMENTS,
  type EnvironmentName,
  isEnvironmentName,
  isLoopbackUrl,
  keyTransportProblem,
  SANDBOX_DEFAULT_PORT,
  type ServiceUrls,
  serviceUrls,
  withoutCredentials,
  withoutUrlCredentials,
} from './environments';
export type { FailureFields, ServiceName, TransportKind } from './failure';
export * from './failure';
export * from './proxy';
export * from './service-text';
export * from './transport';
export { undici } from './undici';
