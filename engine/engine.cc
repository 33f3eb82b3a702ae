#include "engine/engine.h"

#include "base/error.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/xstream/xstream_engine.h"

namespace graphso {

EngineKind parse_engine(const std::string& name) {
  if (name == "gridgraph") return EngineKind::GridGraph;
  if (name == "xstream") return EngineKind::XStream;
  fail("unknown engine '{}' (expected gridgraph or xstream)", name);
}

const char* engine_name(EngineKind engine) { return engine == EngineKind::GridGraph ? "gridgraph" : "xstream"; }

std::unique_ptr<Engine> make_engine(EngineKind engine, const GridGraph& graph, ReaderFactory& readers) {
  if (engine == EngineKind::GridGraph) return std::make_unique<GridEngine>(graph);
  return std::make_unique<XStreamEngine>(graph, readers);
}

}  // namespace graphso
