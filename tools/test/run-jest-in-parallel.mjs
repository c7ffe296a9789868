// `npm test`'s jest half: two jest processes side by side, the end-to-end project (its shared stack) and
// every other project, including the end-to-end specs that run a stack of their own (e2e-own-stack), which
// even out the two. Arguments after the script go to both processes. Exits with the first failure's code.
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
