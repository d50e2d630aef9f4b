import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: { node: string };
};

// Scripts, tests and the server run on the Node that `npm install` puts in node_modules/.bin (the npm
// registry's `node` package), not on whatever Node the machine happens to ship.
test('the tests run on the Node the project installs for itself', () => {
  expect(process.version).toBe(`v${pkg.dependencies.node}`);
  expect(process.execPath).toContain(path.join('node_modules', 'node'));
});

test("package.json's engines names the major version the project installs", () => {
  const major = pkg.dependencies.node.split('.')[0];
  expect(pkg.engines.node).toMatch(new RegExp(`^\\^${major}\\.`));
});
