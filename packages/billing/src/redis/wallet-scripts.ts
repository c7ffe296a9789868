/**
 * The Lua scripts behind every balance and quota move. Each runs atomically inside Redis and appends
 * its ledger event to the namespace's event stream in the same step, so a balance change and its
 * ledger record can never part (no dual write to another system on the hot path).
 *
 * Hold hash fields: tenant, key (the balance or quota counter it drew on), amount, mode
 * (balance | quota), pool (balance | quota, the ledger pool), ledger ("1" when it is ledgered), limit
 * (quota: the period's limit, which a settlement never takes the counter beyond), budgets (the budget
 * counters it also drew on, comma-separated keys; absent when none), bids (the same counters by id, as the
 * ledger names them).
 */

/**
 * A budget counter's id as the ledger records it: its key less the namespace (`key:<uuid>:d20261129`).
 * Every script that writes an event of a budgeted hold names its counters this way.
 */
const BUDGET_IDS = `
local function budgetIds(keys)
  local ids = {}
  for k in string.gmatch(keys, '[^,]+') do ids[#ids + 1] = string.match(k, ':budget:(.*)$') end
  return table.concat(ids, ',')
end`;

/** The reply a move gets while the wallet waits for its rebuild: Redis's own "try again", a Redis fault to callers. */
export const WALLET_REBUILDING = 'TRYAGAIN the wallet is being rebuilt after a change of Redis server';

/**
 * Opens every money move: once the wallet was found whole on a server (the `primary` key holds that
 * server's run id), a different server answering (a promoted replica, or a restart from disk, either of
 * which may lack the newest writes) refuses every move until accounts has rebuilt the wallet and moved the
 * mark. No mark (a new or wiped Redis) refuses nothing: missing balances are seeded as before.
 * `key` is the KEYS index of the `primary` key.
 */
function primaryFence(key: number): string {
  return `
local mark = redis.call('GET', KEYS[${key}])
if mark and mark ~= string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') then
  return redis.error_reply('${WALLET_REBUILDING}')
end`;
}

/**
 * KEYS: target, hold, holds (zset of deadlines), events, primary, then one counter per budget.
 * ARGV: requestId, tenantId, amount, deadlineMs, mode, limit (quota), ttlSeconds (quota), pool, ledger,
 * grantId (quota: the period's grant, ledgered when the period's first reservation opens it), then per
 * budget its limit (-1: soft, counted but never refusing) and its counter's lifetime in seconds (0: forever).
 * The balance (or quota) and every budget are checked before anything moves, so a request is held
 * against all of them or none.
 * Returns {1} reserved (or already held by this tenant), {0, available} refused, {-1} balance not
 * seeded, {-2} the hold exists for another tenant (left untouched), {-3, budget, left} refused by the
 * budget at that position (1-based).
 */
export const RESERVE_SCRIPT = `${primaryFence(5)}${BUDGET_IDS}
if redis.call('EXISTS', KEYS[2]) == 1 then
  if redis.call('HGET', KEYS[2], 'tenant') == ARGV[2] then return {1} end
  return {-2}
end
local amount = tonumber(ARGV[3])
local opened = nil
if ARGV[5] == 'balance' then
  local balance = redis.call('GET', KEYS[1])
  if not balance then return {-1} end
  if tonumber(balance) < amount then return {0, balance} end
else
  opened = redis.call('GET', KEYS[1])
  local used = tonumber(opened or '0')
  local limit = tonumber(ARGV[6])
  if used + amount > limit then return {0, tostring(limit - used)} end
end
local budgets = #KEYS - 5
for i = 1, budgets do
  local limit = tonumber(ARGV[9 + 2 * i])
  if limit >= 0 then
    local used = tonumber(redis.call('GET', KEYS[5 + i]) or '0')
    if used + amount > limit then return {-3, i, tostring(limit - used)} end
  end
end
if ARGV[5] == 'balance' then
  redis.call('DECRBY', KEYS[1], ARGV[3])
else
  if not opened and ARGV[9] == '1' then
    redis.call('XADD', KEYS[4], '*', 'rid', ARGV[10], 'tenant', ARGV[2], 'kind', 'plan_grant', 'pool', ARGV[8], 'amount', ARGV[6])
  end
  redis.call('INCRBY', KEYS[1], ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[7])
end
redis.call('HSET', KEYS[2], 'tenant', ARGV[2], 'key', KEYS[1], 'amount', ARGV[3], 'mode', ARGV[5], 'pool', ARGV[8], 'ledger', ARGV[9], 'limit', ARGV[6])
local ids = ''
if budgets > 0 then
  local list = {}
  for i = 1, budgets do
    redis.call('INCRBY', KEYS[5 + i], ARGV[3])
    local ttl = tonumber(ARGV[10 + 2 * i])
    if ttl > 0 then redis.call('EXPIRE', KEYS[5 + i], ttl) end
    list[i] = KEYS[5 + i]
  end
  local joined = table.concat(list, ',')
  ids = budgetIds(joined)
  redis.call('HSET', KEYS[2], 'budgets', joined, 'bids', ids)
end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
if ARGV[9] == '1' and amount > 0 then
  if ids ~= '' then
    redis.call('XADD', KEYS[4], '*', 'rid', ARGV[1], 'tenant', ARGV[2], 'kind', 'reserve', 'pool', ARGV[8], 'amount', '-' .. ARGV[3], 'budgets', ids)
  else
    redis.call('XADD', KEYS[4], '*', 'rid', ARGV[1], 'tenant', ARGV[2], 'kind', 'reserve', 'pool', ARGV[8], 'amount', '-' .. ARGV[3])
  end
end
return {1}
`;

/**
 * Settles or releases a hold: charges the actual usage, returns what the hold kept beyond it, deletes
 * the hold. Usage above the hold (an upstream that reported more than was reserved) is charged as far
 * as the balance (or the quota's room below its limit) reaches, ledgered as its own `overrun` entry;
 * what lies beyond that is written off (a `write_off` entry moving nothing, its note saying how much),
 * so no balance ever goes below zero and no quota counter above its limit.
 * A hold that is gone (settled before, or released by the sweeper) makes this a no-op, so it is idempotent.
 * KEYS: hold, holds, events, primary. ARGV: requestId, actual, kind (settle | release), note.
 * Returns {0} when there was no hold, {1, charged, overrun, writtenOff} otherwise.
 */
export const SETTLE_SCRIPT = `${primaryFence(4)}${BUDGET_IDS}
local h = redis.call('HMGET', KEYS[1], 'tenant', 'key', 'amount', 'mode', 'pool', 'ledger', 'limit', 'budgets', 'bids')
if not h[1] then return {0} end
local held = tonumber(h[3])
local actual = tonumber(ARGV[2])
if actual < 0 then actual = 0 end
local over = 0
if actual > held then over = actual - held end
-- The overrun is drawn only as far as the balance (or the quota's room) reaches; the rest is written off.
local room = 0
if over > 0 then
  if h[4] == 'balance' then
    room = tonumber(redis.call('GET', h[2]) or '0')
  elseif not h[7] then
    -- A hold reserved before holds kept their quota's limit: its overrun is drawn in full.
    room = over
  elseif redis.call('EXISTS', h[2]) == 1 then
    room = tonumber(h[7]) - tonumber(redis.call('GET', h[2]))
  end
  if room < 0 then room = 0 end
end
local drawn = over
if drawn > room then drawn = room end
local written = over - drawn
local back = held - actual + over
-- One signed move: what the hold kept beyond the usage goes back, or the drawn overrun is taken on top.
local move = held - actual + written
if move ~= 0 then
  if h[4] == 'balance' then
    redis.call('INCRBY', h[2], move)
  elseif redis.call('EXISTS', h[2]) == 1 then
    redis.call('DECRBY', h[2], move)
  end
end
-- Each budget counter ends at what was charged, as the balance does; a counter whose period ended is gone.
local ids = ''
if h[8] then
  for k in string.gmatch(h[8], '[^,]+') do
    if move ~= 0 and redis.call('EXISTS', k) == 1 then redis.call('DECRBY', k, move) end
  end
  ids = h[9] or budgetIds(h[8])
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if h[6] == '1' then
  if held > 0 then
    local fields = {'rid', ARGV[1], 'tenant', h[1], 'kind', ARGV[3], 'pool', h[5], 'amount', tostring(back), 'note', ARGV[4]}
    if ids ~= '' then fields[#fields + 1] = 'budgets'; fields[#fields + 1] = ids end
    redis.call('XADD', KEYS[3], '*', unpack(fields))
  end
  if drawn > 0 then
    local fields = {'rid', ARGV[1], 'tenant', h[1], 'kind', 'overrun', 'pool', h[5], 'amount', '-' .. tostring(drawn), 'note', 'usage above the hold of ' .. tostring(held)}
    if ids ~= '' then fields[#fields + 1] = 'budgets'; fields[#fields + 1] = ids end
    redis.call('XADD', KEYS[3], '*', unpack(fields))
  end
  if written > 0 then
    redis.call('XADD', KEYS[3], '*', 'rid', ARGV[1], 'tenant', h[1], 'kind', 'write_off', 'pool', h[5], 'amount', '0', 'note', 'written off: ' .. tostring(written) .. ' of usage above the hold of ' .. tostring(held) .. ' and the ' .. h[5])
  end
end
return {1, tostring(actual - written), tostring(drawn), tostring(written)}
`;

/**
 * Moves a prepaid balance by an operator amount (top-up, or its compensation), seeding it first.
 * KEYS: balance, primary. ARGV: seed (the stored balance before this move), delta.
 */
export const CREDIT_SCRIPT = `${primaryFence(2)}
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('INCRBY', KEYS[1], ARGV[2])
`;

/**
 * How long a lease's draws outlive the lease: longer than a usage batch can take to be delivered again
 * (the stream's ack wait, times its deliveries before a dead letter).
 */
export const DRAWS_REPLAY_SECONDS = 900;

/**
 * Charges one request served under a lease (a balance hold a chat process reserves for many requests
 * and admits them against locally): charges the actual cost out of the lease as far as it reaches and
 * the rest (usage no reservation covered) out of the balance as far as the balance reaches; what lies
 * beyond both is written off, so the balance never goes below zero. Each request draws once: the lease
 * keeps what each request was charged, so a replay charges nothing and answers the first draw again (its
 * ledger rows, overrun and write-off included, are written by the caller, idempotently). A lease already
 * closed and fully drawn (its draws add up to what its close said its requests cost) is deleted,
 * anything it still held going back to the balance; once a lease is gone there is nothing left to draw,
 * but its draws (with its tenant and pool) stay for DRAWS_REPLAY_SECONDS, so a draw replayed because its
 * writer died before its ledger rows (which may be the draw that ended the lease) still answers.
 * A lease held against budgets keeps their counters as it keeps the balance: a draw beyond the lease adds
 * what the balance gave to each counter, and what goes back to the balance leaves each counter too.
 * KEYS: lease hold, lease draws (hash), holds, primary. ARGV: requestId, actual, leaseId, drawsTtlSeconds.
 * Returns {1, charged, tenant, pool, writtenOff, budgetIds}; {0, charged, tenant, pool, 0, budgetIds} for a
 * replay; {-1} when the lease is gone.
 */
export const DRAW_SCRIPT = `${primaryFence(4)}${BUDGET_IDS}
local before = redis.call('HMGET', KEYS[2], ARGV[1], '#tenant', '#pool', '#budgets')
if before[1] and before[2] then return {0, before[1], before[2], before[3], '0', before[4] or ''} end
local h = redis.call('HMGET', KEYS[1], 'tenant', 'amount', 'pool', 'closed', 'key', 'drawn', 'owed', 'budgets', 'bids')
if not h[1] then return {-1} end
local ids = ''
if h[8] then ids = h[9] or budgetIds(h[8]) end
if before[1] then return {0, before[1], h[1], h[3], '0', ids} end
local left = tonumber(h[2])
if left < 0 then left = 0 end
local actual = tonumber(ARGV[2])
if actual < 0 then actual = 0 end
local fromLease = actual
if fromLease > left then fromLease = left end
local fromBalance = actual - fromLease
if fromBalance > 0 then
  local balance = tonumber(redis.call('GET', h[5]) or '0')
  if balance < 0 then balance = 0 end
  if fromBalance > balance then fromBalance = balance end
end
local written = actual - fromLease - fromBalance
local charged = fromLease + fromBalance
if ids ~= '' then
  redis.call('HSET', KEYS[2], ARGV[1], tostring(charged), '#tenant', h[1], '#pool', h[3], '#budgets', ids)
else
  redis.call('HSET', KEYS[2], ARGV[1], tostring(charged), '#tenant', h[1], '#pool', h[3])
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
if fromLease > 0 then redis.call('HINCRBY', KEYS[1], 'amount', -fromLease) end
if actual > 0 then redis.call('HINCRBY', KEYS[1], 'drawn', actual) end
local budgetMove = fromBalance
if fromBalance > 0 then redis.call('DECRBY', h[5], fromBalance) end
if h[4] == '1' and tonumber(h[6] or '0') + actual >= tonumber(h[7] or '0') then
  if left - fromLease > 0 then
    redis.call('INCRBY', h[5], left - fromLease)
    budgetMove = budgetMove - (left - fromLease)
  end
  redis.call('DEL', KEYS[1])
  redis.call('EXPIRE', KEYS[2], ${DRAWS_REPLAY_SECONDS})
  redis.call('ZREM', KEYS[3], ARGV[3])
end
if h[8] and budgetMove ~= 0 then
  for k in string.gmatch(h[8], '[^,]+') do
    if redis.call('EXISTS', k) == 1 then redis.call('INCRBY', k, budgetMove) end
  end
end
return {1, tostring(charged), h[1], h[3], tostring(written), ids}
`;

/**
 * Closes a lease whose requests have all ended, `charged` being what the leasing process charged them
 * in total. What is not yet drawn of that total stays held for the draws still on their way (as much of
 * it as the lease still has; a draw beyond that comes out of the balance); the rest goes back to the
 * balance now. The lease lives until its draws add up to `charged` (its draws, for replays, a while
 * longer). Leases are not ledgered: their requests' draws are. What goes back leaves the lease's budget
 * counters too.
 * KEYS: lease hold, holds, lease draws, primary. ARGV: leaseId, charged.
 * Returns {1, returned}; {0} when the lease is gone.
 */
export const CLOSE_SCRIPT = `${primaryFence(4)}
local h = redis.call('HMGET', KEYS[1], 'key', 'amount', 'drawn', 'budgets')
if not h[1] then return {0} end
local left = tonumber(h[2])
if left < 0 then left = 0 end
local owed = tonumber(ARGV[2]) - tonumber(h[3] or '0')
if owed < 0 then owed = 0 end
local pending = owed
if pending > left then pending = left end
local back = left - pending
if back > 0 then
  redis.call('INCRBY', h[1], back)
  if h[4] then
    for k in string.gmatch(h[4], '[^,]+') do
      if redis.call('EXISTS', k) == 1 then redis.call('DECRBY', k, back) end
    end
  end
end
if owed == 0 then
  redis.call('DEL', KEYS[1])
  redis.call('EXPIRE', KEYS[3], ${DRAWS_REPLAY_SECONDS})
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[1], 'amount', pending, 'closed', '1', 'owed', ARGV[2])
end
return {1, tostring(back)}
`;
