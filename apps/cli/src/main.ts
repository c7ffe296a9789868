#!/usr/bin/env node
import { runCli } from './program';

void runCli(process.argv.slice(2)).then((code) => {
  // `up` keeps running until it is stopped; every other command ends here.
  if (code !== 0) process.exit(code);
  process.exitCode = code;
});
