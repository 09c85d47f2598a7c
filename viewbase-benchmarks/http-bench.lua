-- wrk request generator for http-bench.sh. BENCH_PATH=read: point reads of random items among
-- the ITEMS that HttpBenchServer preloads (the same pk/id scheme as BenchItems); BENCH_PATH=health:
-- the no-op endpoint. Both draw a random number and format a request, so the load generator
-- spends the same effort per request on either path.
local items = tonumber(os.getenv("ITEMS") or "100000")
local mode = os.getenv("BENCH_PATH") or "read"

function init(args)
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end

function request()
  local i = math.random(0, items - 1)
  if mode == "read" then
    return wrk.format("GET", string.format("/v1/tables/Bench/items/p%03d/i%07d", i % 1000, i))
  end
  return wrk.format("GET", "/v1/health")
end
