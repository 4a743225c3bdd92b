// The helper imported as ESM, as Vitest and ESM projects import it.
import { test } from 'node:test';
import assert from 'node:assert';
import { startSandbox, SandboxError, World } from 'signsandbox';

test('import { startSandbox } from "signsandbox"', async () => {
  assert.strictEqual(typeof startSandbox, 'function');
  assert.strictEqual(typeof SandboxError, 'function');
  const sb = await startSandbox({ clock: 'real' });
  try {
    assert.ok(sb instanceof World);
    assert.strictEqual((await sb.clock()).mode, 'real');
  } finally {
    await sb.close();
  }
});
