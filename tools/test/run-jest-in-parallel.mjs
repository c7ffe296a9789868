// `npm test`'s jest half: the end-to-end project, the end-to-end specs with stacks of their own, and every
// other project as three jest processes side by side.
// Jest gives a two-core machine one worker, so one run would take the unit and integration specs and the
// end-to-end specs one file after another; the end-to-end specs mostly wait on their stack, and the others
// fill that wait. Arguments after the script go to every process. Exits with the first failure's code.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jestBin = require.resolve('jest/bin/jest');
const extra = process.argv.slice(2);

const parts = [
  ['--selectProjects', 'e2e'],
  ['--selectProjects', 'e2e-own-stack'],
  ['--ignoreProjects', 'e2e', 'e2e-own-stack'],
];

const codes = await Promise.all(
  parts.map(
    (args) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [jestBin, '--passWithNoTests', ...args, ...extra], { stdio: 'inherit' });
        child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  ),
);
process.exit(codes.find((code) => code !== 0) ?? 0);
