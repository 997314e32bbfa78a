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

function response(status, headers, body)
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
end
