// The API key lives in VS Code's SecretStorage, never in settings or logs. The EFORMS_API_KEY
// environment variable of the extension host is the fallback (CI, `npm start`).

import * as vscode from 'vscode';

const SECRET_ID = 'eforms.apiKey';

export class ApiKeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Another window of the same profile may change the secret too.
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === SECRET_ID) this.emitter.fire();
    });
  }

  /** The stored key, else the environment's; undefined when neither is set. */
  async get(): Promise<string | undefined> {
    return (await this.stored()) ?? envKey();
  }

  /** Only the SecretStorage key (what the user set through the command). */
  async stored(): Promise<string | undefined> {
    const v = await this.secrets.get(SECRET_ID);
    return v?.trim() ? v.trim() : undefined;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(SECRET_ID, key.trim());
    this.emitter.fire();
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_ID);
    this.emitter.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

function envKey(): string | undefined {
  const v = process.env.EFORMS_API_KEY;
  return v?.trim() ? v.trim() : undefined;
}

/** Rejects what cannot be a key before it is stored; the message is shown under the input box. */
export function checkApiKeyInput(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'Enter the API key (it is stored in VS Code secret storage).';
  if (/\s/.test(v)) return 'An API key has no spaces.';
  if (v.length > 4096) return 'That is too long to be an API key.';
  return undefined;
}
