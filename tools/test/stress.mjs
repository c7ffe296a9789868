// Runs chosen specs again and again with CPU hogs beside them, and prints which tests failed in how many
// runs: the way to find a spec that races the clock before it lands. Everything after `--` goes to jest.
//
//   npm run test:stress -- --runs 20 -- native-batches --selectProjects e2e -t cancels
//   node tools/test/stress.mjs --runs 5 --hogs 1 -- apps/chat/src/assistants/run-sweeper.spec.ts
//
// --runs N (default 10): how many times jest runs the specs; --hogs K (default 1): busy loops, one core
// each, for the whole time; --bail: stop at the first failed run. Each run's output and jest's JSON
// report stay in a folder whose path is printed. Exits 1 if any run failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, createWriteStream, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const jestBin = require.resolve('jest/bin/jest');

const split = process.argv.indexOf('--', 2);
const own = split < 0 ? process.argv.slice(2) : process.argv.slice(2, split);
const jestArgs = split < 0 ? [] : process.argv.slice(split + 1);
const { values } = parseArgs({
  args: own,
  options: { runs: { type: 'string', default: '10' }, hogs: { type: 'string', default: '1' }, bail: { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
const hogCount = Number(values.hogs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, not "${values.runs}"`);
if (!Number.isInteger(hogCount) || hogCount < 0) throw new Error(`--hogs must be a whole number, not "${values.hogs}"`);
if (jestArgs.length === 0) throw new Error('name the specs after `--`, as jest takes them (a path or a pattern first, then --selectProjects e2e, -t TEST)');

const folder = mkdtempSync(path.join(os.tmpdir(), 'gateway-stress-'));
const hogs = Array.from({ length: hogCount }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopHogs = () => hogs.forEach((hog) => hog.kill('SIGKILL'));
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(`stress: ${runs} runs of jest ${jestArgs.join(' ')} beside ${hogCount} CPU hog(s); logs in ${folder}`);

function runJest(run) {
  const report = path.join(folder, `run-${run}.json`);
  const log = path.join(folder, `run-${run}.log`);
  const out = createWriteStream(log);
  const child = spawn(process.execPath, [jestBin, '--json', `--outputFile=${report}`, ...jestArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), report, log })));
}

/** The failed tests of one run's JSON report, as "file › test"; a run that wrote no report is one failure of its own. */
function failuresOf({ code, report, log }) {
  if (!existsSync(report)) return code === 0 ? [] : [`(the run ended with exit code ${code} and no report: ${log})`];
  const result = JSON.parse(readFileSync(report, 'utf8'));
  const failed = [];
  for (const file of result.testResults) {
    const name = path.relative(process.cwd(), file.name);
    const tests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of tests) failed.push(`${name} › ${test.fullName}`);
    if (tests.length === 0 && file.status === 'failed')
      failed.push(`${name} › (the file failed: ${(file.message ?? '').split('\n').find((l) => l.trim()) ?? 'no message'})`);
  }
  if (failed.length === 0 && code !== 0) failed.push(`(jest exited with code ${code}; see ${log})`);
  return failed;
}

const counts = new Map();
let failedRuns = 0;
let testsPerRun = 0;
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const outcome = await runJest(run);
  const failures = failuresOf(outcome);
  if (existsSync(outcome.report)) testsPerRun = JSON.parse(readFileSync(outcome.report, 'utf8')).numPassedTests;
  for (const failure of failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  if (failures.length > 0) failedRuns++;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `run ${run}/${runs}: ${failures.length === 0 ? 'passed' : `${failures.length} failed`} in ${seconds} s${failures.length ? ` (${outcome.log})` : ''}`,
  );
  if (values.bail && failures.length > 0) break;
}

console.log('');
if (counts.size === 0) {
  console.log(`stress: every run passed (${runs} runs of ${testsPerRun} tests)`);
} else {
  console.log(`stress: ${failedRuns} of ${runs} runs failed; each test that failed, with the runs it failed in:`);
  for (const [test, count] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${count}/${runs}  ${test}`);
}
process.exit(counts.size === 0 ? 0 : 1);
