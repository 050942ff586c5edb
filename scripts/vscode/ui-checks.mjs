// User-level checks on the real workbench, driven through the browser like a person would: set the key
// from the command palette, open a notice with problems, see the squiggles, the status bar item and
// every eForms command in the palette. Each check records ok/message; it never throws past its check.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './toolchain.mjs';

const CATEGORY = 'eForms';

/**
 * The commands package.json contributes, with the label the palette shows and whether the palette
 * hides them for good (`"when": "false"`: tree-item commands that need an argument).
 */
export function contributedCommands() {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
  const hidden = new Set(
    (pkg.contributes?.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command),
  );
  return (pkg.contributes?.commands ?? []).map((c) => {
    const title = typeof c.title === 'string' ? c.title : c.title?.value;
    return {
      id: c.command,
      category: c.category,
      title,
      label: `${c.category}: ${title}`,
      hidden: hidden.has(c.command),
    };
  });
}

/** Every command id that client/command-ids.ts declares (read as text: this script does not compile TS). */
export function declaredCommandIds() {
  const src = readFileSync(join(PROJECT_ROOT, 'client', 'command-ids.ts'), 'utf8');
  const block = /export const Commands = \{([\s\S]*?)\}/.exec(src)?.[1] ?? '';
  return [...block.matchAll(/:\s*'(eforms\.[A-Za-z0-9_.]+)'/g)].map((m) => m[1]);
}

async function openPalette(page, text) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(`>${text}`);
  return input;
}

/** Labels of the rows the quick input shows now (after its list settles). */
async function quickInputLabels(page) {
  await page.waitForTimeout(300);
  return page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') || r.textContent || ''));
}

export async function runUiChecks(page, { apiKey, resultsDir, log }) {
  const checks = [];
  async function check(name, fn) {
    const started = Date.now();
    try {
      const message = await fn();
      checks.push({ name, ok: true, message: message ?? '', ms: Date.now() - started });
      log(`  ✔ ${name}${message ? ` (${message})` : ''}`);
    } catch (err) {
      checks.push({ name, ok: false, message: String(err?.message ?? err), ms: Date.now() - started });
      log(`  ✘ ${name}: ${err?.message ?? err}`);
      await page.screenshot({ path: join(resultsDir, `ui-failure-${checks.length}.png`) }).catch(() => {});
    }
  }

  await check('the workbench loads', async () => {
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
    // The explorer shows the workspace files once the remote connection is up.
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60000 });
  });

  const all = contributedCommands();
  const commands = all.filter((c) => !c.hidden);
  await check('every command id in client/command-ids.ts is contributed under "eForms"', async () => {
    const contributed = new Set(all.map((c) => c.id));
    const missing = declaredCommandIds().filter((id) => !contributed.has(id));
    if (missing.length) throw new Error(`not in package.json contributes.commands: ${missing}`);
    const wrong = all.filter((c) => c.category !== CATEGORY).map((c) => c.id);
    if (wrong.length) throw new Error(`category is not "${CATEGORY}": ${wrong}`);
    return `${all.length} commands, ${commands.length} in the palette`;
  });

  await check('the API key can be set from the command palette', async () => {
    const setKey = commands.find((c) => c.id === 'eforms.setApiKey');
    if (!setKey) throw new Error('eforms.setApiKey is not contributed');
    await openPalette(page, setKey.label);
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      hasText: setKey.title,
    });
    await row.first().waitFor({ timeout: 10000 });
    await page.keyboard.press('Enter');
    // The command now asks for the key in a (password) input box.
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.waitForFunction(
      () => {
        const i = document.querySelector('.quick-input-widget .quick-input-box input');
        return i && i.offsetParent !== null && !i.value.startsWith('>');
      },
      undefined,
      { timeout: 10000 },
    );
    await input.fill(apiKey);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
  });

  await check('invalid-cn.xml opened with quick open shows error squiggles', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10000 });
    await input.fill('invalid-cn.xml');
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'invalid-cn.xml' })
      .first()
      .waitFor({ timeout: 15000 });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 15000 });
    // Squiggles are drawn for visible lines only: wait for the problems to arrive (the Problems counter
    // in the status bar), then go to the next problem (F8) like a user until an error is in view.
    await page.waitForFunction(
      () => /[1-9]/.test(document.getElementById('status.problems')?.textContent ?? ''),
      undefined,
      {
        timeout: 30000,
      },
    );
    const squiggles = page.locator('.monaco-editor .squiggly-error');
    for (let i = 0; i < 20 && (await squiggles.count()) === 0; i++) {
      await page.keyboard.press('F8');
      await page.waitForTimeout(250);
    }
    await squiggles.first().waitFor({ state: 'attached', timeout: 30000 });
    await page.screenshot({ path: join(resultsDir, 'notice-with-diagnostics.png') });
    await page.keyboard.press('Escape');
    return `${await squiggles.count()} error squiggles in view`;
  });

  await check('the eForms status bar item is visible', async () => {
    const item = page.locator('.statusbar-item').filter({ hasText: /^\s*eForms/ });
    await item.first().waitFor({ state: 'visible', timeout: 20000 });
    return ((await item.first().textContent()) ?? '').trim();
  });

  await check(`every contributed command is listed under "${CATEGORY}:" in the command palette`, async () => {
    await openPalette(page, CATEGORY);
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .first()
      .waitFor({ timeout: 10000 });
    await page.screenshot({ path: join(resultsDir, 'command-palette.png') });
    const missing = [];
    // The list is virtualised: filter on each full label rather than scrolling through the rows.
    for (const c of commands) {
      await openPalette(page, c.label);
      const labels = await quickInputLabels(page);
      if (!labels.some((l) => l.includes(c.label))) missing.push(`${c.label} (${c.id})`);
    }
    await page.keyboard.press('Escape');
    if (missing.length) throw new Error(`not in the palette: ${missing.join(', ')}`);
    return `${commands.length} commands`;
  });

  await check('no error notification from the extension', async () => {
    const toasts = await page
      .locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item')
      .evaluateAll((items) =>
        items
          .filter((i) => i.querySelector('.codicon-error, .codicon-notifications-error'))
          .map((i) => i.textContent || ''),
      );
    const ours = toasts.filter((t) => /eforms/i.test(t));
    if (ours.length) throw new Error(ours.join(' | '));
    return toasts.length ? `other error notifications: ${toasts.join(' | ')}` : undefined;
  });

  return checks;
}
