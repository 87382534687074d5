-- wrk script for `make bench-load` (run by scripts/bench_load.py, which passes the arguments).
--
-- Each wrk thread drives exactly one connection (wrk -t N -c N), so its requests and responses
-- alternate and it can number the hands it records: it owns its own matches, writes to them in
-- turn, and reads their scoreboards in between. One request in `write_every` records a hand.
--
-- Arguments: session cookie, CSRF secret, write_every, then the matches: one group per thread,
-- groups separated by ";", each "pk:next_hand_number" separated by ",".

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  local session, csrf = args[1], args[2]
  write_every = tonumber(args[3])
  local groups = {}
  for group in string.gmatch(args[4], "[^;]+") do
    table.insert(groups, group)
  end
  matches = {}
  for pair in string.gmatch(groups[(id % #groups) + 1], "[^,]+") do
    local pk, number = string.match(pair, "(%d+):(%d+)")
    table.insert(matches, { pk = pk, next = tonumber(number) })
  end
  read_headers = { Cookie = "sessionid=" .. session }
  write_headers = {
    Cookie = "sessionid=" .. session .. "; csrftoken=" .. csrf,
    ["X-CSRFToken"] = csrf,
    ["HX-Request"] = "true",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }
  sent, read_turn, write_turn = 0, 0, 0
  reads_ok, writes_ok, app_errors = 0, 0, 0
  last_was_write = false
end

-- Odd hands: side 1 takes 27 cards, 7 spades, 10♦ and A♠ (7 points), side 2 the rest (4).
-- Even hands: the other way round, so the totals stay level and no match ends.
local ODD = "cards_0=27&spades_0=7&card_10D=0&card_AS=0"
local EVEN = "cards_0=25&spades_0=6&card_2S=0&card_AC=0&card_AH=0&card_AD=0"

function request()
  sent = sent + 1
  if sent % write_every == 0 then
    local match = matches[(write_turn % #matches) + 1]
    write_turn = write_turn + 1
    local counts = (match.next % 2 == 1) and ODD or EVEN
    local body = "number=" .. match.next .. "&" .. counts
    match.next = match.next + 1
    last_was_write = true
    return wrk.format("POST", "/matches/" .. match.pk .. "/hands/", write_headers, body)
  end
  local match = matches[(read_turn % #matches) + 1]
  read_turn = read_turn + 1
  last_was_write = false
  return wrk.format("GET", "/matches/" .. match.pk .. "/", read_headers)
end

function response(status, headers, body)
  if last_was_write then
    if status == 200 and string.find(body, "data-hand-saved", 1, true) then
      writes_ok = writes_ok + 1
    else
      app_errors = app_errors + 1
    end
  elseif status == 200 and string.find(body, 'id="board"', 1, true) then
    reads_ok = reads_ok + 1
  else
    app_errors = app_errors + 1
  end
end

function done(summary, latency, requests)
  local reads, writes, errors = 0, 0, 0
  for _, thread in ipairs(threads) do
    reads = reads + thread:get("reads_ok")
    writes = writes + thread:get("writes_ok")
    errors = errors + thread:get("app_errors")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, '
      .. '"max_us": %d, "connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d, '
      .. '"reads_ok": %d, "writes_ok": %d, "app_errors": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.status, e.timeout,
    reads, writes, errors
  ))
end
