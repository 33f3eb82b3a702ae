// graphso graphalytics DATASET.properties|DIR... --out DIR: LDBC Graphalytics' benchmark run with
// graphso's own commands, as a user would run them: per dataset, the load (convert as the
// properties say, then prep: Tl), then each algorithm its properties list, run alone with the
// properties' parameters (the run's processing time Tp from its report, its makespan Tm as the
// command's wall time, EVPS = (|V| + |E|) / Tp), its output validated against NAME-ALGO beside the
// properties when there is one; then what no Graphalytics platform offers: every algorithm run in
// one batch, its makespan against the sum of theirs. A results table on standard output, the same
// in DIR/graphalytics.json, every command's output in DIR/NAME/*.log.
//
// An algorithm graphso does not know is a row that says so, never a silently different one.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/error.h"
#include "base/file.h"
#include "base/json_writer.h"
#include "datasets/graphalytics_properties.h"
#include "tools/graphso/commands.h"
#include "tools/graphso/options.h"
#include "tools/graphso/self_command.h"

namespace graphso {
namespace {

namespace fs = std::filesystem;

// One of Graphalytics' algorithms on one dataset: the graphso job, or why there is none.
struct Planned {
  std::string algorithm;  // as the properties name it: bfs, cdlp, lcc, pr, sssp, wcc
  std::string job;        // `run --job` argument; empty: not run
  std::string rule;       // `validate --algo`
  std::string expected;   // NAME-ALGO beside the properties, when it exists
  std::string not_run;    // why it is not run
};

// What one algorithm's run measured.
struct Measured {
  Planned plan;
  double tp = 0, tm = 0, evps = 0;
  std::string validation;  // "valid", "no expected output", or the validator's line
  bool ok = true;
};

std::vector<Planned> plan(const GraphalyticsProperties& p, const std::string& dir) {
  std::vector<Planned> planned;
  for (const std::string& algorithm : p.algorithms) {
    Planned a;
    a.algorithm = algorithm;
    std::string upper = algorithm;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (const std::string expected = dir + "/" + p.name + "-" + upper; path_exists(expected)) a.expected = expected;
    if (algorithm == "bfs") {
      a.job = "bfs:source=" + p.parameter("bfs.source-vertex");
      a.rule = "bfs";
    } else if (algorithm == "wcc") {
      a.job = "wcc";
      a.rule = "wcc";
    } else if (algorithm == "pr") {
      a.job = fmt::format("pagerank:variant=graphalytics:iterations={}:damping={}", p.parameter("pr.num-iterations"),
                          p.parameter("pr.damping-factor"));
      a.rule = "pagerank";
    } else if (algorithm == "sssp") {
      a.rule = "sssp";
      a.job = "sssp:source=" + p.parameter("sssp.source-vertex");
    } else if (algorithm == "cdlp") {
      a.job = "cdlp:iterations=" + p.parameter("cdlp.max-iterations");
      a.rule = "cdlp";
    } else if (algorithm == "lcc") {
      a.job = "lcc";
      a.rule = "lcc";
    } else {
      a.not_run = "not a Graphalytics algorithm graphso knows";
    }
    planned.push_back(std::move(a));
  }
  return planned;
}

// A number field of a run's JSON report (`text`, read from `report`: "wall_seconds": 0.12), or fail.
double report_number(const std::string& text, const std::string& report, const std::string& key) {
  const size_t at = text.find("\"" + key + "\": ");
  if (at == std::string::npos) fail("{}: no {}", report, key);
  return std::stod(text.substr(at + key.size() + 4));
}

// Validates `result` against the plan's expected output: "valid", "no expected output", or why not.
std::string validation_of(const Planned& a, const std::string& result, const std::string& log, bool& ok) {
  if (a.expected.empty()) return "no expected output";
  const CommandOutcome v = run_self({"validate", result, a.expected, "--algo", a.rule}, log);
  ok = v.status == 0;
  return ok ? "valid" : last_line(log);
}

std::string result_file(const std::string& out, size_t index, const std::string& job) {
  return fmt::format("{}/{}-{}.txt", out, index, job.substr(0, job.find(':')));
}

}  // namespace

int cmd_graphalytics(const Args& args) {
  po::options_description options("graphalytics options");
  std::vector<std::string> inputs;
  std::string out;
  std::vector<std::string> passed;  // run options passed through
  std::string engine = "gridgraph", sharing, mem, graph_mem, threads;
  options.add_options()
      ("input", po::value(&inputs)->required()->multitoken(), "NAME.properties files, or directories of them (NAME.v, NAME.e beside)")
      ("out,o", po::value(&out)->required(), "directory for the graphs, results, logs and graphalytics.json")
      ("engine", po::value(&engine)->default_value("gridgraph"), "run --engine: gridgraph|xstream")
      ("sharing", po::value(&sharing), "run --sharing")
      ("mem", po::value(&mem), "run --mem")
      ("graph-mem", po::value(&graph_mem), "run --graph-mem")
      ("threads", po::value(&threads), "run --threads");
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  if (!parse_options("graphalytics", "DATASET.properties|DIR... -o OUT [options]", args, options, positional, vm)) return 0;
  if (engine != "gridgraph" && engine != "xstream") throw UsageError(fmt::format("graphalytics: --engine '{}' (expected gridgraph or xstream)", engine));
  passed = {"--engine", engine};
  for (auto [flag, value] : {std::pair{"--sharing", &sharing}, {"--mem", &mem}, {"--graph-mem", &graph_mem}, {"--threads", &threads}})
    if (!value->empty()) passed.insert(passed.end(), {flag, *value});

  std::vector<std::string> datasets;
  for (const std::string& input : inputs) {
    if (fs::is_directory(input)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::directory_iterator(input))
        if (entry.path().extension() == ".properties") found.push_back(entry.path().string());
      if (found.empty()) fail("graphalytics: {} holds no .properties file", input);
      std::sort(found.begin(), found.end());
      datasets.insert(datasets.end(), found.begin(), found.end());
    } else if (input.ends_with(".properties")) {
      if (!path_exists(input)) fail("graphalytics: {}: no such file", input);
      datasets.push_back(input);
    } else {
      throw UsageError(fmt::format("graphalytics: {} is neither a NAME.properties file nor a directory", input));
    }
  }
  // Every dataset's properties are read (and its algorithms' parameters found) before anything runs.
  std::set<std::string> names;
  std::vector<GraphalyticsProperties> all;
  for (const std::string& path : datasets) {
    const std::string name = fs::path(path).stem().string();
    if (!names.insert(name).second) fail("graphalytics: two datasets named {} (their results would share {}/{})", name, out, name);
    all.push_back(read_graphalytics_properties(path, name));
    if (all.back().algorithms.empty()) fail("graphalytics: {}: graph.{}.algorithms names no algorithm to run", path, name);
    plan(all.back(), ".");
  }
  fs::create_directories(out);

  JsonWriter json;
  json.begin_object().field("engine", engine).begin_array("datasets");
  std::printf("%-24s %-6s %9s %9s %9s %12s  %s\n", "dataset", "algo", "Tl s", "Tp s", "Tm s", "EVPS", "validation");
  bool all_ok = true;
  for (const GraphalyticsProperties& properties : all) {
    const std::string& path = properties.path;
    const std::string& name = properties.name;
    const fs::path file(path);
    const std::string dir = file.parent_path().empty() ? "." : file.parent_path().string();
    const std::string work = out + "/" + name, edges = work + "/graph.bin", graph = work + "/graph";
    fs::create_directories(work);

    // Tl: convert as the properties say (real weights when their type is real), then prep.
    const CommandOutcome convert = run_self({"convert", path, "-o", edges}, work + "/convert.log");
    double tl = convert.seconds;
    if (convert.status != 0) fail("graphalytics: {}: convert: {}", name, last_line(work + "/convert.log"));
    const CommandOutcome prep = run_self({"prep", edges, "-o", graph, "--engine", engine == "xstream" ? "both" : "gridgraph"}, work + "/prep.log");
    if (prep.status != 0) fail("graphalytics: {}: prep: {}", name, last_line(work + "/prep.log"));
    tl += prep.seconds;

    std::vector<Measured> rows;
    for (const Planned& a : plan(properties, dir)) {
      Measured m;
      m.plan = a;
      if (a.job.empty()) {
        m.validation = "not run: " + a.not_run;
        rows.push_back(m);
        continue;
      }
      const std::string results = work + "/" + a.algorithm, report = work + "/" + a.algorithm + ".json";
      std::vector<std::string> run = {"run", graph, "--job", a.job, "--out-format", "graphalytics", "--out", results, "--report", report};
      run.insert(run.end(), passed.begin(), passed.end());
      const CommandOutcome ran = run_self(run, work + "/" + a.algorithm + ".log");
      if (ran.status != 0) {
        m.ok = false;
        m.validation = "run failed: " + last_line(work + "/" + a.algorithm + ".log");
      } else {
        m.tm = ran.seconds;
        const std::string text = read_small_file(report);
        m.tp = report_number(text, report, "wall_seconds");
        const double vertices = properties.vertices ? static_cast<double>(*properties.vertices) : report_number(text, report, "vertices");
        const double edge_count = properties.edges ? static_cast<double>(*properties.edges) : report_number(text, report, "edges");
        m.evps = m.tp > 0 ? (vertices + edge_count) / m.tp : 0;
        m.validation = validation_of(a, result_file(results, 0, a.job), work + "/" + a.algorithm + ".validate.log", m.ok);
      }
      all_ok = all_ok && m.ok;
      rows.push_back(m);
    }

    // Every algorithm graphso runs, in one batch.
    std::vector<std::string> batch = {"run", graph, "--out-format", "graphalytics", "--out", work + "/batch", "--report", work + "/batch.json"};
    std::vector<const Measured*> batched;
    double alone_tm = 0;
    for (const Measured& m : rows)
      if (!m.plan.job.empty() && m.tm > 0) {
        batch.insert(batch.end(), {"--job", m.plan.job});
        batched.push_back(&m);
        alone_tm += m.tm;
      }
    batch.insert(batch.end(), passed.begin(), passed.end());
    double batch_tm = 0, batch_tp = 0;
    std::string batch_validation = "not run";
    bool batch_ok = true;
    if (batched.size() > 1) {
      const CommandOutcome ran = run_self(batch, work + "/batch.log");
      if (ran.status != 0) {
        batch_ok = false;
        batch_validation = "run failed: " + last_line(work + "/batch.log");
      } else {
        batch_tm = ran.seconds;
        batch_tp = report_number(read_small_file(work + "/batch.json"), work + "/batch.json", "wall_seconds");
        uint64_t valid = 0, checked = 0;
        for (size_t k = 0; k < batched.size(); ++k) {
          if (batched[k]->plan.expected.empty()) continue;
          bool ok = true;
          const std::string line = validation_of(batched[k]->plan, result_file(work + "/batch", k, batched[k]->plan.job),
                                                 work + "/batch.validate.log", ok);
          ++checked;
          valid += ok;
          if (!ok) batch_validation = batched[k]->plan.algorithm + ": " + line;
        }
        batch_ok = valid == checked;
        if (batch_ok) batch_validation = checked ? fmt::format("{} of {} valid", valid, checked) : "no expected output";
      }
      all_ok = all_ok && batch_ok;
    }

    json.begin_object().field("dataset", name).field("properties", path).field("load_seconds", tl);
    json.begin_array("algorithms");
    for (const Measured& m : rows) {
      json.begin_object().field("algorithm", m.plan.algorithm).field("job", m.plan.job);
      if (m.plan.job.empty()) {
        json.field("not_run", m.plan.not_run);
      } else {
        json.field("processing_seconds", m.tp).field("makespan_seconds", m.tm).field("evps", m.evps);
        json.field("validation", m.validation).field("ok", m.ok);
      }
      json.end_object();
      if (m.plan.job.empty() || m.tm == 0)
        std::printf("%-24s %-6s %9.3f %9s %9s %12s  %s\n", name.c_str(), m.plan.algorithm.c_str(), tl, "", "", "", m.validation.c_str());
      else
        std::printf("%-24s %-6s %9.3f %9.4f %9.4f %12.4g  %s\n", name.c_str(), m.plan.algorithm.c_str(), tl, m.tp, m.tm, m.evps,
                    m.validation.c_str());
    }
    json.end_array();
    if (batched.size() > 1) {
      json.begin_object("batch").field("jobs", static_cast<uint64_t>(batched.size())).field("processing_seconds", batch_tp);
      json.field("makespan_seconds", batch_tm).field("makespan_alone_seconds", alone_tm);
      json.field("validation", batch_validation).field("ok", batch_ok).end_object();
      std::printf("%-24s %-6s %9s %9.4f %9.4f %12s  %zu algorithms in one batch: makespan %.2fx the %.3f s of their runs alone; %s\n",
                  name.c_str(), "batch", "", batch_tp, batch_tm, "", batched.size(), alone_tm > 0 ? batch_tm / alone_tm : 0.0,
                  alone_tm, batch_validation.c_str());
    }
    json.end_object();
  }
  json.end_array().field("ok", all_ok).end_object();
  AtomicOutputFile summary(out + "/graphalytics.json");  // a reader never sees half of it
  summary.append(json.text());
  summary.commit();
  if (!all_ok) fail("graphalytics: some runs failed or did not validate (the table above; {}/graphalytics.json)", out);
  return 0;
}

}  // namespace graphso
