-- One request per line of a file, round robin, each thread starting at its own offset.
-- Settings from the environment (wrk passes no arguments to request()):
--   BENCH_LINES   file of values; "{}" in the path, the body and the headers becomes the value
--   BENCH_METHOD  GET (default) or POST
--   BENCH_PATH    path and query, e.g. /api/people/{}
--   BENCH_BODY    request body (optional)
--   BENCH_HEADERS headers separated by "|", e.g. "Authorization: Bearer {}|Accept: application/json"
local threads = {}
local counter = 1

function setup(thread)
  thread:set("offset", counter * 7919)
  counter = counter + 1
  table.insert(threads, thread)
end

local lines, method, path, body, headers, n, i

function init(args)
  lines = {}
  local file = os.getenv("BENCH_LINES")
  if file then
    for line in io.lines(file) do
      if line ~= "" then table.insert(lines, line) end
    end
  end
  if #lines == 0 then lines = { "" } end
  method = os.getenv("BENCH_METHOD") or "GET"
  path = os.getenv("BENCH_PATH") or "/"
  body = os.getenv("BENCH_BODY")
  headers = {}
  for h in string.gmatch(os.getenv("BENCH_HEADERS") or "", "[^|]+") do
    local name, value = string.match(h, "^%s*([^:]+):%s*(.*)$")
    if name then headers[name] = value end
  end
  n = #lines
  i = (offset or 0) % n
end

local function fill(template, value)
  if template == nil then return nil end
  return (string.gsub(template, "{}", function() return value end))
end

function request()
  i = i % n + 1
  local value = lines[i]
  local h = {}
  for name, template in pairs(headers) do h[name] = fill(template, value) end
  return wrk.format(method, fill(path, value), h, fill(body, value))
end
