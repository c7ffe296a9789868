/**
 * Reserves one sign-in attempt before any password is checked, atomically across replicas.
 * KEYS: the email's attempt record (a hash: failures, lockedUntil), the client address's counter.
 * ARGV: threshold, first lock (ms), longest lock (ms), attempts per address, the address window (ms),
 * how long an email's record outlives its last attempt (ms).
 * Replies `{'address', ms left}` when the address has used its allowance, `{'locked', ms left}` while the
 * email is locked, else `{'check', failures counting this one, locked until (ms, 0: not locked)}`. The
 * attempt counts as a failure until a success returns it, so guesses sent at once are counted before any
 * of them is checked, and the attempt that reaches the threshold locks the email before its own check.
 */
export const RESERVE_SIGN_IN_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[4]) then
  return {'address', redis.call('PTTL', KEYS[2])}
end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
local locked = tonumber(redis.call('HGET', KEYS[1], 'lockedUntil') or '0')
if locked > now then
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return {'locked', locked - now}
end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local threshold = tonumber(ARGV[1])
local lockedUntil = 0
if failures >= threshold then
  lockedUntil = now + math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ math.min(failures - threshold, 30))
  redis.call('HSET', KEYS[1], 'lockedUntil', string.format('%d', lockedUntil))
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return {'check', failures, lockedUntil}
`;

/** A success: the email's failures are forgotten and the attempt is returned to the address. KEYS as above. */
export const SUCCEED_SIGN_IN_SCRIPT = `
redis.call('DEL', KEYS[1])
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
return 1
`;
