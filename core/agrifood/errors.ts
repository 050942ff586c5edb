// The one error type of the agri-food client: a ServiceError (core/http) with a kind callers can
// branch on and a default message that says what to do. Text from the service is sanitized before it
// reaches a message (core/http/service-text.ts, markup dropped): it may hold control characters, markup or megabytes.

import { type FailureFields, ServiceError, type TransportKind } from '../http';

export type AgrifoodErrorKind =
  /** The query breaks a rule of the spec; nothing was sent. */
  | 'invalid-query'
  /** 404 for a path the service does not have. */
  | 'unknown-path'
  /** 500 from the service. */
  | 'server'
  /** 429 or a gateway error, still failing after the bounded retries. */
  | 'unavailable'
  /** 200 whose body is not the JSON array the spec promises. */
  | 'bad-answer'
  | 'http'
  | TransportKind;

export class AgrifoodError extends ServiceError<AgrifoodErrorKind> {
  constructor(kind: AgrifoodErrorKind, message: string, status?: number, fields: FailureFields = {}) {
    super('agrifood', kind, message, { ...fields, status: status ?? fields.status });
    this.name = 'AgrifoodError';
  }
}
