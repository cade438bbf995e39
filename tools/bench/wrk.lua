-- wrk's script for tools/bench/load.ts. Arguments after `--`: the API key, the method, the path, the JSON body ('' for
-- none), the number of seeded pets and a file of requests ('' for none). A path holding {id} is sent with an id from 1
-- to that number drawn anew for each request (LuaJIT's unseeded generator: the same sequence for every server), so no
-- one row is hot. With a file, each request is one of its lines ("METHOD path [body]"), drawn anew the same way.
-- done() prints one JSON line after wrk's own report.

non2xx = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local key, method, path, body, pets, file = args[1], args[2], args[3], args[4], tonumber(args[5]), args[6]
  wrk.method = method
  wrk.path = path
  wrk.headers["Authorization"] = "Bearer " .. key
  if body ~= "" then
    wrk.body = body
    wrk.headers["Content-Type"] = "application/json"
  end
  if file and file ~= "" then
    local lines = {}
    for line in io.lines(file) do
      local m, p, b = line:match("^(%S+) (%S+) ?(.*)$")
      -- wrk.format takes the headers given in place of wrk.headers, not merged with them.
      local headers = { ["Authorization"] = "Bearer " .. key }
      if b ~= "" then headers["Content-Type"] = "application/json" end
      table.insert(lines, wrk.format(m, p, headers, b ~= "" and b or nil))
    end
    request = function()
      return lines[math.random(#lines)]
    end
    return
  end
  local before, after = path:match("^(.*){id}(.*)$")
  if before then
    request = function()
      return wrk.format(nil, before .. math.random(pets) .. after)
    end
  end
end

-- wrk itself only counts statuses over 399; every answer that is not 2xx fails the run.
function response(status)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency)
  local failed = 0
  for _, thread in ipairs(threads) do
    failed = failed + thread:get("non2xx")
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"non2xx":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,' ..
      '"meanUs":%.1f,"p50Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, failed, e.connect, e.read, e.write, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(99), latency.max))
end
