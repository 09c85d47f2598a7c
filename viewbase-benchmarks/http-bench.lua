-- wrk request generator for http-bench.sh. BENCH_PATH=read: point reads of random items among
-- the ITEMS that HttpBenchServer preloads (the same pk/id scheme as BenchItems); BENCH_PATH=health:
-- the no-op endpoint; BENCH_PATH=azure: the same point reads through the Azure Tables dialect,
-- signed with the table SAS in AZURE_SAS and with the headers the Azure SDKs send; BENCH_PATH=write:
-- a durable upsert (PUT) of a random one of those items with a BenchItems-like body. All draw a
-- random number and format a request, so the load generator spends the same effort per request on
-- either path.
local items = tonumber(os.getenv("ITEMS") or "100000")
local mode = os.getenv("BENCH_PATH") or "read"
local sas = os.getenv("AZURE_SAS") or ""
-- API_KEY (http-bench.sh KEYS=1): sent as Authorization: Bearer on the native point reads
local api_key = os.getenv("API_KEY") or ""
local read_headers = nil
if api_key ~= "" then
  read_headers = { ["Authorization"] = "Bearer " .. api_key }
end
local azure_headers = {
  ["Accept"] = "application/json;odata=minimalmetadata",
  ["DataServiceVersion"] = "3.0",
  ["MaxDataServiceVersion"] = "3.0;NetFx",
  ["x-ms-version"] = "2019-02-02",
  ["x-ms-client-request-id"] = "0f8fad5b-d9cb-469f-a165-70867728950e",
  ["x-ms-date"] = "Mon, 30 Nov 2026 12:00:00 GMT",
  ["User-Agent"] = "azsdk-java-azure-data-tables/12.5.9 (17.0.15; Linux; 6.1)",
}

local write_headers = { ["Content-Type"] = "application/json" }

function init(args)
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end

function request()
  local i = math.random(0, items - 1)
  if mode == "azure" then
    return wrk.format("GET", string.format("/devstoreaccount1/Bench(PartitionKey='p%03d',RowKey='i%07d')?%s",
      i % 1000, i, sas), azure_headers)
  end
  if mode == "write" then
    return wrk.format("PUT", string.format("/v1/tables/Bench/items/p%03d/i%07d", i % 1000, i), write_headers,
      string.format('{"name":"Person %d","email":"person%d@example.com","age":%d,"city":"Rotterdam","active":true}',
        i, i, 20 + i % 60))
  end
  if mode == "read" then
    return wrk.format("GET", string.format("/v1/tables/Bench/items/p%03d/i%07d", i % 1000, i), read_headers)
  end
  return wrk.format("GET", "/v1/health")
end
