// Job arguments: parsing, defaults, and every kind of bad job rejected before anything runs.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "base/error.h"
#include "jobs/job_spec.h"
#include "jobs/job_file.h"
#include "jobs/registry.h"
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
  CHECK_THAT(bad("bfs:source=1:depth=3"), Catch::Contains("bfs has no parameter 'depth' (it takes: source, reach)"));
  CHECK_THAT(bad("sssp:source=1:reach=-1"), Catch::Contains("reach = '-1' is not a non-negative integer"));
  CHECK_THAT(bad("bfs:source=1:reach=2000000000"), Catch::Contains("reach = 2000000000 is outside"));
  CHECK_THAT(bad("pagerank:iterations=0"), Catch::Contains("iterations = 0 is outside"));
  CHECK_THAT(bad("pagerank-delta:tolerance=abc"), Catch::Contains("tolerance = 'abc' is not a number"));
  CHECK_THAT(bad("pagerank-delta:tolerance=-1"), Catch::Contains("must be positive"));
  CHECK_THAT(bad("pagerank:damping=1"), Catch::Contains("damping = 1 must be below 1"));
  CHECK_THAT(bad("pagerank-delta:damping=0"), Catch::Contains("damping = 0 must be positive"));
  CHECK_THAT(bad("ppr:source=1:damping=x"), Catch::Contains("damping = 'x' is not a number"));
  CHECK_THAT(bad("bfs:source"), Catch::Contains("'source' is not KEY=VALUE"));
  CHECK_THAT(bad("bfs:source=1:source=2"), Catch::Contains("source given twice"));
  CHECK_THAT(bad("wcc:name=../x"), Catch::Contains("may only use letters"));
  CHECK_THAT(error_of([] {
               std::vector<JobSpec> specs = {parse_job_argument("wcc:name=a", 0), parse_job_argument("bfs:source=0:name=a", 1)};
               name_jobs(specs);
             }),
             Catch::Contains("duplicate job name 'a'"));
}

TEST_CASE("the registry: every algorithm has a reference checker, and --job and a job file build the same job") {
  std::set<std::string> registered, checked;
  for (const Algorithm& a : algorithms()) registered.insert(a.name);
  for (const std::string& name : registered)
    if (has_reference(name)) checked.insert(name);
  REQUIRE(registered == checked);
  REQUIRE_FALSE(has_reference("dfs"));
  REQUIRE(registered.count("ppr"));
  REQUIRE(registered.count("kcore"));

  // Every parameter of every algorithm, given both ways, parses to the same spec and builds.
  graphso::testing::TempDir dir;
  for (const Algorithm& a : algorithms()) {
    INFO("algorithm " << a.name);
    std::string arg = a.name, toml = "[[job]]\nalgo = \"" + a.name + "\"\n";
    for (const ParamInfo& p : a.params) {
      std::string cli_value, toml_value;
      switch (p.type) {
        case ParamType::Integer: cli_value = toml_value = "3"; break;
        case ParamType::Real: cli_value = toml_value = "0.5"; break;
        case ParamType::Text: cli_value = p.default_value, toml_value = "\"" + p.default_value + "\""; break;
        case ParamType::Vertex: cli_value = toml_value = "4"; break;
        case ParamType::Vertices: cli_value = "4,2,4", toml_value = "[4, 2, 4]"; break;
      }
      arg += ":" + p.name + "=" + cli_value;
      toml += p.name + " = " + toml_value + "\n";
    }
    JobSpec from_cli = parse_job_argument(arg, 0);
    std::ofstream(dir.file("one.toml")) << toml;
    JobSpec from_file = parse_job_file(dir.file("one.toml")).specs.at(0);
    REQUIRE(from_cli.algo == from_file.algo);
    REQUIRE(from_cli.params == from_file.params);
    std::vector<JobSpec> specs = {from_file};
    name_jobs(specs);
    std::unique_ptr<Job> job = make_job(specs[0], 10);
    REQUIRE(job->algo() == a.name);
  }
  // ppr's sources: a list in both forms, each checked against the graph.
  auto bad = [](const std::string& arg) {
    return error_of([&] {
      std::vector<JobSpec> specs = {parse_job_argument(arg, 0)};
      name_jobs(specs);
      make_job(specs[0], 10);
    });
  };
  CHECK_THAT(bad("ppr"), Catch::Contains("ppr needs a source"));
  CHECK_THAT(bad("ppr:source=1,10"), Catch::Contains("source = 10 is out of range"));
  CHECK_THAT(bad("ppr:source=1,,2"), Catch::Contains("source = '' is not a non-negative integer"));
  CHECK_THAT(bad("kcore:k=3"), Catch::Contains("kcore has no parameter 'k' (it takes: none)"));
  std::ofstream(dir.file("list.toml")) << "[[job]]\nalgo = \"ppr\"\nsource = [1, \"x\"]\n";
  CHECK_THAT(error_of([&] { parse_job_file(dir.file("list.toml")); }), Catch::Contains("list.toml:3: job 0: source must be an integer"));
}
