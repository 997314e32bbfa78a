-- wrk script: POST a random body from a file of bodies (one JSON document per line) to wrk's URL.
--
--   wrk -t2 -c32 -d15s --latency -s bench/wrk_post.lua http://127.0.0.1:8000/graphql -- BODIES SEED
--
-- Each thread reads the file once and formats every request up front, so that a request costs wrk
-- one random number. A response that is not 200, or whose body carries GraphQL `"errors":`, is
-- counted; so are the SQL statements and milliseconds that the API reports in its header
-- `server-timing: sql;dur=<ms>;desc="<N> statements"`. `done` prints the totals (bench/wrk.py reads them):
--
--   bad responses: N
--   sql statements: N in M responses, T ms
--   statuses: 200 N, 503 N, 429 N, other N; refusals without code or Retry-After N

local threads = {}

function setup(thread)
   thread:set("thread_number", #threads + 1)
   table.insert(threads, thread)
end

-- globals: `done` reads them from each thread's state
bad = 0
statements = 0 -- over the responses that carry a server-timing header
timed = 0 -- those responses
sql_ms = 0
ok = 0 -- responses by status: 200, 503, 429, any other
unavailable = 0
limited = 0
other = 0
unmarked = 0 -- 503 and 429 without their code in the body or without Retry-After

local prepared = {}

function init(args)
   local path, seed = args[1], tonumber(args[2] or "1")
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   for line in io.lines(path) do
      if #line > 0 then
         prepared[#prepared + 1] = wrk.format(nil, nil, nil, line)
      end
   end
   if #prepared == 0 then
      error("no bodies in " .. path)
   end
   math.randomseed(seed * 1000 + thread_number)
end

function request()
   return prepared[math.random(#prepared)]
end

local function count_sql(timing)
   local count = string.match(timing, 'desc="(%d+) statements"')
   if count then
      statements = statements + tonumber(count)
      sql_ms = sql_ms + (tonumber(string.match(timing, "sql;dur=([%d.]+)")) or 0)
      timed = timed + 1
   end
end

local function check_refusal(headers, body, code)
   local retry = headers["retry-after"] or headers["Retry-After"]
   if not retry or not string.find(body, '"code":"' .. code .. '"', 1, true) then
      unmarked = unmarked + 1
   end
end

function response(status, headers, body)
   if status == 200 then
      ok = ok + 1
   elseif status == 503 then
      unavailable = unavailable + 1
      check_refusal(headers, body, "UPSTREAM_UNAVAILABLE")
   elseif status == 429 then
      limited = limited + 1
      check_refusal(headers, body, "RATE_LIMITED")
   else
      other = other + 1
   end
   if status ~= 200 or string.find(body, '"errors":', 1, true) then
      bad = bad + 1
   end
   local timing = headers["server-timing"] or headers["Server-Timing"]
   if timing then
      count_sql(timing)
   end
end

local function total(name)
   local sum = 0
   for _, thread in ipairs(threads) do
      sum = sum + thread:get(name)
   end
   return sum
end

function done(summary, latency, requests)
   io.write(string.format("bad responses: %d\n", total("bad")))
   io.write(string.format("sql statements: %d in %d responses, %.1f ms\n", total("statements"), total("timed"),
      total("sql_ms")))
   io.write(string.format("statuses: 200 %d, 503 %d, 429 %d, other %d; refusals without code or Retry-After %d\n",
      total("ok"), total("unavailable"), total("limited"), total("other"), total("unmarked")))
end
