-- wrk script for `make bench-live` (run by scripts/bench_live.py, which passes the arguments).
--
-- Idle boards polling, as an open scoreboard does every 4 s: GET <board>?since=<version> with
-- HX-Request, answered 204 when nothing changed. Each wrk thread drives one connection and walks
-- its own boards in turn. With `write_every` > 0, one request in that many saves a hand on one of
-- the thread's boards (the phones of a live table also save), and its polls then ask for the new
-- version, so every answer but a save's must be 204.
--
-- Arguments: the file of boards (one per line: "path poll_prefix session version next_hand",
-- the poll's address being poll_prefix .. version), write_every, the CSRF secret, the number of
-- threads.

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  write_every = tonumber(args[2])
  csrf = args[3]
  boards = {}
  local index = 0
  for line in io.lines(args[1]) do
    local path, query, session, version, number = string.match(line, "(%S+) (%S+) (%S+) (%d+) (%d+)")
    -- Each thread owns every boards[k] with k % threads == id, so its saves number themselves.
    if index % tonumber(args[4]) == id then
      table.insert(boards, { path = path, query = query, session = session, version = tonumber(version), next = tonumber(number) })
    end
    index = index + 1
  end
  sent, turn = 0, 0
  polls_ok, writes_ok, app_errors = 0, 0, 0
  last = nil
end

-- Odd hands: side 1 takes 27 cards, 7 spades, 10♦ and A♠ (7 points), side 2 the rest (4).
local ODD = "cards_0=27&spades_0=7&card_10D=0&card_AS=0"
local EVEN = "cards_0=25&spades_0=6&card_2S=0&card_AC=0&card_AH=0&card_AD=0"

function request()
  sent = sent + 1
  local board = boards[(turn % #boards) + 1]
  turn = turn + 1
  last = board
  if write_every > 0 and sent % write_every == 0 then
    local body = "number=" .. board.next .. "&" .. ((board.next % 2 == 1) and ODD or EVEN)
    board.writing = true
    return wrk.format("POST", board.path .. "hands/", {
      Cookie = "sessionid=" .. board.session .. "; csrftoken=" .. csrf,
      ["X-CSRFToken"] = csrf, ["HX-Request"] = "true",
      ["Content-Type"] = "application/x-www-form-urlencoded",
    }, body)
  end
  board.writing = false
  return wrk.format("GET", board.query .. board.version, {
    Cookie = "sessionid=" .. board.session, ["HX-Request"] = "true",
  })
end

function response(status, headers, body)
  local board = last
  if board.writing then
    if status == 200 and string.find(body, "data-hand-saved", 1, true) then
      writes_ok = writes_ok + 1
      board.next = board.next + 1
      -- The board's next poll asks from the version after the save (read from the answer).
      local version = string.match(body, "since=(%d+)")
      if version then board.version = tonumber(version) end
    else
      app_errors = app_errors + 1
      if not first_error then first_error = "save " .. status .. " " .. string.sub(body, 1, 200) end
    end
  elseif status == 204 then
    polls_ok = polls_ok + 1
  else
    app_errors = app_errors + 1
    if not first_error then first_error = "poll " .. status .. " " .. string.sub(body, 1, 200) end
  end
end

function done(summary, latency, requests)
  local polls, writes, errors = 0, 0, 0
  for _, thread in ipairs(threads) do
    local seen = thread:get("first_error")
    if seen then io.write("FIRST ERROR " .. string.gsub(seen, "\n", " ") .. "\n") end
    polls = polls + thread:get("polls_ok")
    writes = writes + thread:get("writes_ok")
    errors = errors + thread:get("app_errors")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, '
      .. '"transport": %d, "polls_ok": %d, "writes_ok": %d, "app_errors": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.timeout, polls, writes, errors
  ))
end
