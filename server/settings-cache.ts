// The `eforms` settings of each document, asked of the client through workspace/configuration (scoped
// to the document's uri) and cached per resource until the client says they changed. Clients without
// workspace/configuration get the settings pushed by didChangeConfiguration, or the defaults.
// Never holds the API key: it is not a setting.

import { DEFAULT_SETTINGS, type EformsSettings, readSettings } from '../core/settings';

/** Asks the client for the raw `eforms` section at a scope; undefined when the client cannot answer. */
export type ConfigurationFetcher = (scopeUri: string) => Promise<unknown>;

export class SettingsCache {
  private readonly perResource = new Map<string, Promise<EformsSettings>>();
  private global: EformsSettings = DEFAULT_SETTINGS;

  constructor(
    private fetcher: ConfigurationFetcher | undefined,
    private readonly onFetchError: (message: string) => void = () => {},
  ) {}

  /** Turns workspace/configuration on or off (known only once the client has initialized). */
  setFetcher(fetcher: ConfigurationFetcher | undefined): void {
    this.fetcher = fetcher;
    this.perResource.clear();
  }

  get(uri: string): Promise<EformsSettings> {
    const fetcher = this.fetcher;
    if (!fetcher) return Promise.resolve(this.global);
    let p = this.perResource.get(uri);
    if (!p) {
      p = fetcher(uri).then(
        (raw) =>
          raw === undefined || raw === null ? this.global : readSettings(raw as Record<string, unknown>),
        (err: unknown) => {
          this.onFetchError(
            `workspace/configuration failed (${err instanceof Error ? err.message : String(err)}); using defaults.`,
          );
          this.perResource.delete(uri);
          return this.global;
        },
      );
      this.perResource.set(uri, p);
    }
    return p;
  }

  /**
   * Drops every cached answer. `pushed` is the `eforms` section a didChangeConfiguration carried, the
   * only source for clients that do not support workspace/configuration.
   */
  invalidate(pushed?: unknown): void {
    this.perResource.clear();
    if (pushed && typeof pushed === 'object') this.global = readSettings(pushed as Record<string, unknown>);
  }

  forget(uri: string): void {
    this.perResource.delete(uri);
  }
}
