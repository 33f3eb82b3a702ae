#include "jobs/job_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

// toml++ 3.3 (Debian 12) asserts on some malformed inputs ("[}", "[[[1]]]": upstream fixed this
// after 3.4) and marks other paths unreachable. Both are made to throw, so every input is either
// parsed or refused with one line; the parser throws its own parse_error the same way.
namespace graphso::toml_guard {
struct InternalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] inline void stop(const char* what) { throw InternalError(what); }
}  // namespace graphso::toml_guard
#define TOML_ASSERT(expr) ((expr) ? static_cast<void>(0) : ::graphso::toml_guard::stop("internal check failed: " #expr))
#include <toml++/impl/preprocessor.h>
#undef TOML_UNREACHABLE
#define TOML_UNREACHABLE ::graphso::toml_guard::stop("reached an impossible state")
#include <toml++/toml.h>

#include "base/error.h"
#include "base/file.h"
#include "jobs/job_sources.h"
#include "jobs/registry.h"

namespace graphso {
namespace {

// A parameter's value as `--job` would give it, checked against the parameter's type.
std::string param_text(const ParamInfo& param, const toml::node& value, const std::string& where) {
  auto integer = [&](const toml::node& node) {
    if (!node.is_integer()) fail("{} must be an integer", where);
    int64_t v = *node.value<int64_t>();
    if (v < 0) fail("{} = {} must not be negative", where, v);
    return std::to_string(v);
  };
  // A vertex is an id, or "random" (jobs/job_sources.h).
  auto vertex = [&](const toml::node& node) {
    if (node.is_string() && *node.value<std::string>() == kRandomSource) return std::string(kRandomSource);
    return integer(node);
  };
  switch (param.type) {
    case ParamType::Integer:
      return integer(value);
    case ParamType::Vertex:
      return vertex(value);
    case ParamType::Real:
      if (!value.is_number()) fail("{} must be a number", where);
      return fmt::format("{}", *value.value<double>());
    case ParamType::Text:
      if (!value.is_string()) fail("{} must be a string", where);
      return *value.value<std::string>();
    case ParamType::Vertices: {
      const toml::array* list = value.as_array();
      if (!list) return vertex(value);
      if (list->empty()) fail("{} is an empty list", where);
      std::string text;
      for (const toml::node& item : *list) text += (text.empty() ? "" : ",") + vertex(item);
      return text;
    }
  }
  fail("{}: unknown parameter type", where);
}

}  // namespace

JobFile parse_job_file(const std::string& path) {
  constexpr uint64_t kMost = 1 << 20;
  if (path == "-") return parse_job_text(read_stream(STDIN_FILENO, "standard input", kMost), "standard input");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail("{}: no such job file", path);
  if (S_ISDIR(st.st_mode)) fail("{}: is a directory, not a job file", path);
  if (!S_ISREG(st.st_mode)) {  // a pipe, /dev/stdin, a process substitution: read to its end
    File file(path, File::Mode::Read);
    return parse_job_text(read_stream(file.fd(), path, kMost), path);
  }
  if (static_cast<uint64_t>(st.st_size) > kMost)
    fail("{}: {} bytes is too large for a job file (at most 1 MiB)", path, st.st_size);
  return parse_job_text(read_small_file(path), path);
}

JobFile parse_job_text(std::string_view original, const std::string& path) {
  // Every value a job file holds is ASCII (algorithm names, job names, numbers). toml++ 3.3's
  // generated Unicode tables reach "unreachable" for some non-ASCII characters (U+00E9 among
  // them) inside noexcept functions, so non-ASCII bytes, wherever they stand (comments), are read
  // as '?': a comment stays a comment, and a string or key holding one is refused as usual.
  std::string text(original);
  for (char& c : text)
    if (static_cast<unsigned char>(c) >= 0x80) c = '?';
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    // The parser quotes what it saw, which may be a newline or another control byte.
    fail("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column, printable(e.description()));
  } catch (const toml_guard::InternalError& e) {
    fail("{}: not valid TOML (the parser stopped: {})", path, e.what());
  }
  for (auto&& [key, value] : root)
    if (key.str() != "job")
      fail("{}:{}: unknown top-level key '{}' (jobs are [[job]] tables)", path, value.source().begin.line, key.str());
  const toml::array* list = root["job"].as_array();
  if (!list || list->empty()) fail("{}: no [[job]] tables", path);

  JobFile file;
  for (size_t index = 0; index < list->size(); ++index) {
    const toml::node& node = (*list)[index];
    const toml::table* table = node.as_table();
    if (!table) fail("{}:{}: job {} is not a table (write [[job]])", path, node.source().begin.line, index);
    JobSpec spec;
    spec.origin = fmt::format("{}:{}: job {}", path, node.source().begin.line, index);
    uint32_t arrive_after = 0;
    // The algorithm first: its registry entry types every other key.
    const Algorithm* algo = nullptr;
    if (const toml::node* name = table->get("algo"); name && name->is_string())
      algo = find_algorithm(*name->value<std::string>());
    for (auto&& [key_node, value] : *table) {
      std::string key(key_node.str());
      std::string where = fmt::format("{}:{}: job {}: {}", path, value.source().begin.line, index, key);
      spec.param_origins[key] = fmt::format("{}:{}: job {}", path, value.source().begin.line, index);
      if (key == "algo" || key == "name") {
        if (!value.is_string()) fail("{} must be a string", where);
        std::string text = *value.value<std::string>();
        if (key == "name" && text.empty()) fail("{} is empty (leave it out for the default name)", where);
        (key == "algo" ? spec.algo : spec.name) = text;
        continue;
      }
      if (key == "async") {
        if (!value.is_boolean()) fail("{} must be true or false", where);
        spec.async = *value.value<bool>();
        continue;
      }
      if (key == "version") {
        if (!value.is_integer() || *value.value<int64_t>() < 0) fail("{} must be a log position (an integer, 0 or more)", where);
        spec.version = static_cast<uint64_t>(*value.value<int64_t>());
        continue;
      }
      if (key == "arrive_after") {
        if (!value.is_integer()) fail("{} must be an integer", where);
        int64_t v = *value.value<int64_t>();
        if (v < 0) fail("{} = {} must not be negative", where, v);
        if (v > 1000000) fail("{} = {} is too large", where, v);
        arrive_after = static_cast<uint32_t>(v);
        continue;
      }
      // A key of another algorithm is kept, so make_job names the algorithm's own parameters.
      const ParamInfo* param = algo && algo->param(key) ? algo->param(key) : find_any_param(key);
      if (!param) {
        std::string known = "algo, name, arrive_after, async, version";
        for (const ParamInfo& p : algo ? algo->params : std::vector<ParamInfo>{}) known += ", " + p.name;
        fail("{}: unknown key (known: {})", where, known);
      }
      spec.params[key] = param_text(*param, value, where);
    }
    if (spec.algo.empty()) fail("{}: missing algo", spec.origin);
    file.specs.push_back(std::move(spec));
    file.arrive_after.push_back(arrive_after);
  }
  return file;
}

}  // namespace graphso
