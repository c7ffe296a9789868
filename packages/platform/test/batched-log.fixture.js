// Writes LINES lines through the platform logger, then (THEN) exits at once, throws, or stays up: for the logger spec.
const { createLogger } = require('@gateway/platform');
const { setInterval } = require('node:timers');

const log = createLogger('fixture', { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
const count = Number(process.env.LINES);
for (let n = 0; n < count; n++) log.info({ n, requestId: `req-${n}` }, 'access');
if (process.env.THEN === 'exit') process.exit(0);
if (process.env.THEN === 'throw') throw new Error('the fixture fails on purpose');
setInterval(() => undefined, 1000);
