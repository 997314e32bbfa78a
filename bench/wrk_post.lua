-- wrk script: POST a random body from a file of bodies (one JSON document per line) to wrk's URL.
--
--   wrk -t2 -c32 -d15s --latency -s bench/wrk_post.lua http://127.0.0.1:8000/graphql -- BODIES SEED
--
-- Each thread reads the file once and formats every request up front, so that a request costs wrk
-- one random number. A response that is not 200, or whose body carries GraphQL `"errors":`, is
-- counted; `done` prints the total as "bad responses: N" (bench/load.py reads it).

local threads = {}

function setup(thread)
   thread:set("thread_number", #threads + 1)
   table.insert(threads, thread)
end

bad = 0 -- global: `done` reads it from each thread's state

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

function response(status, headers, body)
   if status ~= 200 or string.find(body, '"errors":', 1, true) then
      bad = bad + 1
   end
end

function done(summary, latency, requests)
   local total = 0
   for _, thread in ipairs(threads) do
      total = total + thread:get("bad")
   end
   io.write(string.format("bad responses: %d\n", total))
end
