// `npm test`'s jest half, as two lanes side by side. Jest gives a two-core machine one worker, so one run
// would take every spec file one after another. One lane runs the end-to-end specs on the shared stack;
// the other runs the unit and integration specs, then the end-to-end specs that launch and kill stacks of
// their own. Those mostly wait on their processes, so they go once the unit specs have given the cores
// back. Arguments after the script go to every process. Exits with the first failure's code.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jestBin = require.resolve('jest/bin/jest');
const extra = process.argv.slice(2);

const lanes = [
  [['--selectProjects', 'e2e']],
  [
    ['--ignoreProjects', 'e2e', 'e2e-own-stack'],
    ['--selectProjects', 'e2e-own-stack'],
  ],
];

function jest(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [jestBin, '--passWithNoTests', ...args, ...extra], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runLane(runs) {
  let failed = 0;
  for (const args of runs) {
    const code = await jest(args);
    failed ||= code;
  }
  return failed;
}

const codes = await Promise.all(lanes.map(runLane));
process.exit(codes.find((code) => code !== 0) ?? 0);
