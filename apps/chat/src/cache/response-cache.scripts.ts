/** Drops one entry and its place in a tenant's books (last read, expiry, size, total). */
const FORGET = `
local function forget(lru, expiries, sizes, total, prefix, h)
  local s = tonumber(redis.call('HGET', sizes, h) or '0')
  redis.call('HDEL', sizes, h)
  redis.call('ZREM', lru, h)
  redis.call('ZREM', expiries, h)
  redis.call('DEL', prefix .. h)
  if s > 0 then redis.call('DECRBY', total, s) end
end
`;

/**
 * Stores one entry and keeps the tenant's total under its cap: expired entries leave the books first,
 * then the least recently read go until the total fits. KEYS: entry, lru, expiries, sizes, total.
 * ARGV: hash, value, ttlMs, nowMs, tenantMaxBytes, entry key prefix. Returns {total, evicted}.
 */
export const PUT_SCRIPT = `
${FORGET}
local function forgetHere(h) forget(KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[6], h) end
for _, h in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[4], 'LIMIT', 0, 256)) do forgetHere(h) end
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then forgetHere(ARGV[1]) end
local size = string.len(ARGV[2])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[3], tonumber(ARGV[4]) + tonumber(ARGV[3]), ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], size)
local total = redis.call('INCRBY', KEYS[5], size)
local evicted = 0
while total > tonumber(ARGV[5]) do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #oldest == 0 or oldest[1] == ARGV[1] then break end
  forgetHere(oldest[1])
  evicted = evicted + 1
  total = tonumber(redis.call('GET', KEYS[5]) or '0')
end
return {total, evicted}
`;

/** Reads one entry and marks it recently read. KEYS: entry, lru. ARGV: hash, nowMs. */
export const GET_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('ZADD', KEYS[2], 'XX', ARGV[2], ARGV[1]) end
return value
`;

/** Forgets up to ARGV[2] of a tenant's entries. KEYS: lru, expiries, sizes, total. ARGV: entry key prefix, batch. Returns how many. */
export const PURGE_SCRIPT = `
${FORGET}
local hashes = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
for _, h in ipairs(hashes) do forget(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], h) end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4]) end
return #hashes
`;
