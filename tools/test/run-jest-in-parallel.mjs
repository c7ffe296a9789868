// `npm test`'s jest half: the end-to-end project and every other project as two jest processes side by side.
// Jest gives a two-core machine one worker, so one run would take the unit and integration specs and the
// end-to-end specs one file after another; the end-to-end specs mostly wait on their stack, and the others
// fill that wait. Arguments after the script go to both processes. Exits with the first failure's code.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jestBin = require.resolve('jest/bin/jest');
const extra = process.argv.slice(2);

const halves = [
  ['--selectProjects', 'e2e'],
  ['--ignoreProjects', 'e2e'],
];

const codes = await Promise.all(
  halves.map(
    (args) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [jestBin, '--passWithNoTests', ...args, ...extra], { stdio: 'inherit' });
        child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  ),
);
process.exit(codes.find((code) => code !== 0) ?? 0);
