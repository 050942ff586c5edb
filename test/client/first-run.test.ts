// The first run without an SDK: the notification offers exactly the three choices the issue names
// (a download that says which release and how big, a folder picker, "Not now"), the status item warns
// and opens those choices, and a chosen folder is written where VS Code will read it (checked against
// VS Code's own precedence: folder over workspace over user). The walkthrough in package.json takes a
// new user through the five steps, each with its markdown in media/walkthrough/ and commands that exist.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Commands } from '../../client/command-ids';
import {
  OFFERED_SDK,
  presentNoSdk,
  sdkOffer,
  sdkPathTarget,
  settingsCommandFor,
} from '../../client/first-run';
import { PROJECT_ROOT } from '../support/shared-data';

test('the notification offers a named download with its size, a folder, and not now', () => {
  const o = sdkOffer();
  assert.match(
    o.download,
    new RegExp(`^Download eForms SDK ${OFFERED_SDK.version.replace('.', '\\.')} \\(about \\d+ MB\\)$`),
  );
  assert.equal(o.chooseFolder, 'Choose SDK folder…');
  assert.equal(o.notNow, 'Not now');
  assert.match(o.message, /no eForms SDK/);
  const wanted = sdkOffer('1.13');
  assert.match(wanted.download, /^Download eForms SDK 1\.13 /);
  assert.match(wanted.message, /1\.13/);
});

test('the status item warns while no SDK is available, and a click offers the choices', () => {
  const p = presentNoSdk();
  assert.equal(p.background, 'warning');
  assert.equal(p.command, Commands.getSdk);
  assert.match(p.text, /no SDK/);
  assert.doesNotMatch(p.ariaLabel, /\$\(|&[a-z]+;/);
  assert.match(presentNoSdk('1.15').text, /1\.15/);
});

test('the folder is written where VS Code reads it: user (machine) settings for a machine setting', () => {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
  const props = Object.assign(
    {},
    ...pkg.contributes.configuration.map((c: { properties: object }) => c.properties),
  );
  const scope = props['eforms.sdk.path'].scope;
  assert.ok(scope === 'machine' || scope === 'machine-overridable', scope);
  // A machine setting ignores workspace values: the user's (remote machine's) settings decide.
  assert.equal(sdkPathTarget({ workspaceValue: '/w' }, 'machine'), 'global');
  assert.equal(sdkPathTarget(undefined, scope), 'global');
  // Machine-overridable: VS Code's precedence, folder over workspace over user.
  assert.equal(sdkPathTarget({ workspaceValue: '/w' }, 'machine-overridable'), 'workspace');
  assert.equal(
    sdkPathTarget({ workspaceValue: '/w', workspaceFolderValue: '/f' }, 'machine-overridable'),
    'workspaceFolder',
  );
  assert.equal(settingsCommandFor(undefined), 'workbench.action.openSettings');
  assert.equal(settingsCommandFor('ssh-remote'), 'workbench.action.openRemoteSettings');
});

test('the walkthrough goes from the SDK to a sandbox submission, with its media shipped', () => {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
  const [w] = pkg.contributes.walkthroughs;
  assert.ok(w, 'a walkthrough is contributed');
  const contributed = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  const steps: { id: string; title: string; description: string; media: { markdown?: string } }[] = w.steps;
  const titles = steps.map((s) => s.title.toLowerCase());
  for (const [i, word] of ['sdk', 'notice', 'fix', 'api key', 'sandbox'].entries())
    assert.ok(titles[i]?.includes(word), `step ${i + 1} (${titles[i]}) is about ${word}`);
  const shipped = readFileSync(join(PROJECT_ROOT, '.vscodeignore'), 'utf8');
  for (const s of steps) {
    const md = s.media.markdown;
    assert.ok(md && existsSync(join(PROJECT_ROOT, md)), `${s.id}: ${md} exists`);
    assert.ok(/^!media\/walkthrough\/\*\.md$/m.test(shipped), '.vscodeignore ships the walkthrough');
    for (const m of s.description.matchAll(/\(command:([\w.]+)/g)) {
      const id = m[1] as string;
      if (id.startsWith('eforms.')) assert.ok(contributed.has(id), `${s.id}: ${id} is contributed`);
    }
  }
  assert.ok(contributed.has(Commands.getSdk));
});
