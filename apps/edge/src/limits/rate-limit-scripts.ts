/**
 * Admission for two scopes at once (the key, then its tenant), in one atomic round trip. Requests and
 * tokens per minute use a sliding window estimate (this minute's count plus the previous minute's,
 * weighted by how much of it still overlaps); concurrency is a counter released when the reply ends.
 *
 * KEYS per scope (5 each): rpm now, rpm previous, tpm now, tpm previous, in flight.
 * ARGV: previous-window weight, tokens, then per scope: rpm, tpm, concurrency (0 = no limit).
 * Returns {1} admitted, or {0, kind, scope} refused (scope 0 = key, 1 = tenant).
 */
export const ADMIT_SCRIPT = `
local weight = tonumber(ARGV[1])
local tokens = tonumber(ARGV[2])
local function used(now, previous)
  return tonumber(redis.call('GET', now) or '0') + math.floor(tonumber(redis.call('GET', previous) or '0') * weight)
end
for s = 0, 1 do
  local k = s * 5
  local a = 3 + s * 3
  local rpm, tpm, conc = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  if rpm > 0 and used(KEYS[k + 1], KEYS[k + 2]) + 1 > rpm then return {0, 'rpm', s} end
  if tpm > 0 then
    local spent = used(KEYS[k + 3], KEYS[k + 4])
    -- One request larger than the whole budget may still pass when nothing else was spent.
    if spent > 0 and spent + tokens > tpm then return {0, 'tpm', s} end
  end
  if conc > 0 and tonumber(redis.call('GET', KEYS[k + 5]) or '0') + 1 > conc then return {0, 'concurrency', s} end
end
for s = 0, 1 do
  local k = s * 5
  local a = 3 + s * 3
  if tonumber(ARGV[a]) > 0 then redis.call('INCR', KEYS[k + 1]); redis.call('EXPIRE', KEYS[k + 1], 120) end
  if tonumber(ARGV[a + 1]) > 0 then redis.call('INCRBY', KEYS[k + 3], tokens); redis.call('EXPIRE', KEYS[k + 3], 120) end
  if tonumber(ARGV[a + 2]) > 0 then redis.call('INCR', KEYS[k + 5]); redis.call('EXPIRE', KEYS[k + 5], 900) end
end
return {1}
`;

/** KEYS: in-flight counters to decrement (never below zero). */
export const LEAVE_SCRIPT = `
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;
