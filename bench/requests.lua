-- wrk script: cycles through the requests listed in a file, counts responses by status class
-- and prints one machine-readable summary line (parsed by bench/wrk.py).
--
-- Usage: wrk ... -s bench/requests.lua URL -- FILE
-- FILE holds one request per line: METHOD <tab> PATH <tab> CONTENT-TYPE ("-" for none) <tab> BODY

local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  requests = {}
  for line in io.lines(args[1]) do
    local method, path, ctype, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
    local headers = {}
    if ctype ~= "-" then headers["Content-Type"] = ctype end
    if body == "" then body = nil end
    table.insert(requests, wrk.format(method, path, headers, body))
  end
  -- Threads start at different places so that they do not send the same request in step.
  index = ((id or 1) - 1) * 7919 % #requests
  s2, s3, s4, s5, sx = 0, 0, 0, 0, 0
end

function request()
  index = index % #requests + 1
  return requests[index]
end

function response(status, headers, body)
  if status >= 200 and status < 300 then s2 = s2 + 1
  elseif status < 400 then s3 = s3 + 1
  elseif status < 500 then s4 = s4 + 1
  elseif status < 600 then s5 = s5 + 1
  else sx = sx + 1 end
end

function done(summary, latency, requests)
  local c = {s2 = 0, s3 = 0, s4 = 0, s5 = 0, sx = 0}
  for _, thread in ipairs(threads) do
    for name, _ in pairs(c) do c[name] = c[name] + (thread:get(name) or 0) end
  end
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"s2xx":%d,"s3xx":%d,"s4xx":%d,"s5xx":%d,"sother":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    c.s2, c.s3, c.s4, c.s5, c.sx,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
