-- GET with a DPoP-bound token and a proof used once (RFC 9449): each line of BENCH_LINES is the
-- token, a tab, a proof. Thread k of BENCH_THREADS takes lines k, k + BENCH_THREADS, ... so that no
-- proof is sent twice; a file too short for the run ends in replays, which the gateway refuses
-- (counted as errors).
--   BENCH_LINES   the token and proof lines (bench/DpopProofs.java)
--   BENCH_PATH    the path, e.g. /api/user
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

local tokens, proofs, path, i, stride

function init(args)
  tokens, proofs = {}, {}
  for line in io.lines(os.getenv("BENCH_LINES")) do
    local token, proof = string.match(line, "^([^\t]+)\t(.+)$")
    if token then
      table.insert(tokens, token)
      table.insert(proofs, proof)
    end
  end
  path = os.getenv("BENCH_PATH") or "/"
  stride = tonumber(os.getenv("BENCH_THREADS") or "1")
  i = (index or 0) + 1 - stride
end

function request()
  i = i + stride
  if i > #proofs then i = #proofs end
  return wrk.format("GET", path, { ["Authorization"] = "DPoP " .. tokens[i], ["DPoP"] = proofs[i] })
end
