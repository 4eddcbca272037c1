-- refresh_token grant under rotation: every answer's new refresh token is used by a later
-- request of the same thread, so each token is presented once, as a client would.
--   BENCH_LINES   starting refresh tokens (at least one per connection)
--   BENCH_PATH    token endpoint path
--   BENCH_HEADERS as in rotate.lua (client authentication, Accept)
local counter = 0
function setup(thread)
  thread:set("slot", counter)
  counter = counter + 1
end

local queue, first, last, path, headers, spare

function init(args)
  local all = {}
  for line in io.lines(os.getenv("BENCH_LINES")) do
    if line ~= "" then table.insert(all, line) end
  end
  -- Each thread takes its own share of the starting tokens.
  local threads = tonumber(os.getenv("BENCH_THREADS") or "1")
  queue, first, last = {}, 1, 0
  for k = 1, #all do
    if (k - 1) % threads == (slot or 0) then last = last + 1; queue[last] = all[k] end
  end
  spare = all[1]
  path = os.getenv("BENCH_PATH")
  headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }
  for h in string.gmatch(os.getenv("BENCH_HEADERS") or "", "[^|]+") do
    local name, value = string.match(h, "^%s*([^:]+):%s*(.*)$")
    if name then headers[name] = value end
  end
end

function request()
  local token
  if first <= last then
    token = queue[first]; queue[first] = nil; first = first + 1
  else
    token = spare -- nothing left to rotate: this request fails and is counted as an error
  end
  return wrk.format("POST", path, headers, "grant_type=refresh_token&refresh_token=" .. token)
end

function response(status, hdrs, body)
  local token = string.match(body, '"refresh_token"%s*:%s*"([^"]+)"')
  if token then last = last + 1; queue[last] = token end
end
