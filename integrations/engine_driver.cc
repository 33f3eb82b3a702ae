#include "integrations/engine_driver.h"

#include "engine/common/error.h"

namespace graphso {

EngineKind parse_engine(const std::string& name) {
  if (name == "gridgraph") return EngineKind::GridGraph;
  if (name == "xstream") return EngineKind::XStream;
  fail("unknown engine '{}' (expected gridgraph or xstream)", name);
}

const char* engine_name(EngineKind engine) {
  return engine == EngineKind::GridGraph ? "gridgraph" : "xstream";
}

std::unique_ptr<EngineDriver> make_engine_driver(EngineKind engine, const GridGraph& graph, ReaderFactory& readers) {
  return engine == EngineKind::GridGraph ? make_gridgraph_driver(graph, readers) : make_xstream_driver(graph, readers);
}

}  // namespace graphso
