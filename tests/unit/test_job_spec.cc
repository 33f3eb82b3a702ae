// Job arguments: parsing, defaults, and every kind of bad job rejected before anything runs.
#include <catch2/catch.hpp>

#include "engine/common/error.h"
#include "jobs/job_spec.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::error_of;

TEST_CASE("job arguments parse into algo, name and parameters; default names are index-algo") {
  std::vector<JobSpec> specs = {parse_job_argument("bfs:source=3", 0),
                                parse_job_argument("pagerank-delta:tolerance=1e-7:max_iterations=50", 1),
                                parse_job_argument("wcc:name=components", 2)};
  name_jobs(specs);
  REQUIRE(specs[0].name == "0-bfs");
  REQUIRE(specs[0].params.at("source") == "3");
  REQUIRE(specs[1].params.at("max_iterations") == "50");
  REQUIRE(specs[2].name == "components");
  auto job = make_job(specs[1], 10);
  REQUIRE(job->algo() == "pagerank-delta");
  REQUIRE(job->name() == "1-pagerank-delta");
}

TEST_CASE("bad jobs are one-line errors naming the job and the key") {
  auto bad = [](const std::string& arg, uint64_t vertices = 100) {
    return error_of([&] {
      std::vector<JobSpec> specs = {parse_job_argument(arg, 0)};
      name_jobs(specs);
      make_job(specs[0], vertices);
    });
  };
  CHECK_THAT(bad("dfs:source=0"), Catch::Contains("unknown algorithm 'dfs'"));
  CHECK_THAT(bad("bfs"), Catch::Contains("bfs needs a source"));
  CHECK_THAT(bad("bfs:source=100"), Catch::Contains("source = 100 is out of range (the graph has vertices 0..99)"));
  CHECK_THAT(bad("sssp:source=-1"), Catch::Contains("source = '-1' is not a non-negative integer"));
  CHECK_THAT(bad("bfs:source=1:depth=3"), Catch::Contains("bfs has no parameter 'depth' (it takes: source)"));
  CHECK_THAT(bad("pagerank:iterations=0"), Catch::Contains("iterations = 0 is outside"));
  CHECK_THAT(bad("pagerank-delta:tolerance=abc"), Catch::Contains("tolerance = 'abc' is not a number"));
  CHECK_THAT(bad("pagerank-delta:tolerance=-1"), Catch::Contains("must be positive"));
  CHECK_THAT(bad("bfs:source"), Catch::Contains("'source' is not KEY=VALUE"));
  CHECK_THAT(bad("bfs:source=1:source=2"), Catch::Contains("source given twice"));
  CHECK_THAT(bad("wcc:name=../x"), Catch::Contains("may only use letters"));
  CHECK_THAT(error_of([] {
               std::vector<JobSpec> specs = {parse_job_argument("wcc:name=a", 0), parse_job_argument("bfs:source=0:name=a", 1)};
               name_jobs(specs);
             }),
             Catch::Contains("duplicate job name 'a'"));
}
