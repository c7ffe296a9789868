// Headless Chromium (Debian's package) through playwright-core, for the specs that render pages.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What this machine's closed network needs: no background fetches, no QUIC, no first-run or sync. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Playwright starts the browser headless with a fresh, temporary --user-data-dir of its own. */
export function launchHeadlessChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}
