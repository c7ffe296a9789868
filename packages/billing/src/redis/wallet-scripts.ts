/**
 * The Lua scripts behind every balance and quota move. Each runs atomically inside Redis and appends
 * its ledger event to the namespace's event stream in the same step, so a balance change and its
 * ledger record can never part (no dual write to another system on the hot path).
 *
 * Hold hash fields: tenant, key (the balance or quota counter it drew on), amount, mode
 * (balance | quota), pool (balance | quota, the ledger pool), ledger ("1" when it is ledgered).
 */

/**
 * KEYS: target, hold, holds (zset of deadlines), events.
 * ARGV: requestId, tenantId, amount, deadlineMs, mode, limit (quota), ttlSeconds (quota), pool, ledger.
 * Returns {1} reserved (or already held), {0, available} refused, {-1} balance not seeded.
 */
export const RESERVE_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {1} end
local amount = tonumber(ARGV[3])
if ARGV[5] == 'balance' then
  local balance = redis.call('GET', KEYS[1])
  if not balance then return {-1} end
  if tonumber(balance) < amount then return {0, balance} end
  redis.call('DECRBY', KEYS[1], ARGV[3])
else
  local used = tonumber(redis.call('GET', KEYS[1]) or '0')
  local limit = tonumber(ARGV[6])
  if used + amount > limit then return {0, tostring(limit - used)} end
  redis.call('INCRBY', KEYS[1], ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[7])
end
redis.call('HSET', KEYS[2], 'tenant', ARGV[2], 'key', KEYS[1], 'amount', ARGV[3], 'mode', ARGV[5], 'pool', ARGV[8], 'ledger', ARGV[9])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
if ARGV[9] == '1' and amount > 0 then
  redis.call('XADD', KEYS[4], '*', 'rid', ARGV[1], 'tenant', ARGV[2], 'kind', 'reserve', 'pool', ARGV[8], 'amount', '-' .. ARGV[3])
end
return {1}
`;

/**
 * Settles or releases a hold: charges min(actual, held), returns the rest, deletes the hold. A hold
 * that is gone (settled before, or released by the sweeper) makes this a no-op, so it is idempotent.
 * KEYS: hold, holds, events. ARGV: requestId, actual, kind (settle | release), note.
 * Returns {0} when there was no hold, {1, charged} otherwise.
 */
export const SETTLE_SCRIPT = `
local h = redis.call('HMGET', KEYS[1], 'tenant', 'key', 'amount', 'mode', 'pool', 'ledger')
if not h[1] then return {0} end
local held = tonumber(h[3])
local actual = tonumber(ARGV[2])
if actual > held then actual = held end
if actual < 0 then actual = 0 end
local back = held - actual
if back > 0 then
  if h[4] == 'balance' then
    redis.call('INCRBY', h[2], back)
  elseif redis.call('EXISTS', h[2]) == 1 then
    redis.call('DECRBY', h[2], back)
  end
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if h[6] == '1' and held > 0 then
  redis.call('XADD', KEYS[3], '*', 'rid', ARGV[1], 'tenant', h[1], 'kind', ARGV[3], 'pool', h[5], 'amount', tostring(back), 'note', ARGV[4])
end
return {1, tostring(actual)}
`;

/**
 * Moves a prepaid balance by an operator amount (top-up, or its compensation), seeding it first.
 * KEYS: balance. ARGV: seed (the stored balance before this move), delta.
 */
export const CREDIT_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('INCRBY', KEYS[1], ARGV[2])
`;
