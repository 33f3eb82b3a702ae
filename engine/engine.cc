#include "base/enum_names.h"
#include "engine/engine.h"

#include "base/error.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/xstream/xstream_engine.h"

namespace graphso {

namespace {
constexpr EnumName<EngineKind> kEngineNames[] = {{EngineKind::GridGraph, "gridgraph"}, {EngineKind::XStream, "xstream"}};
}  // namespace

EngineKind parse_engine(const std::string& name) { return parse_enum<EngineKind>(kEngineNames, name, "engine"); }
const char* engine_name(EngineKind engine) { return enum_name<EngineKind>(kEngineNames, engine); }

std::unique_ptr<Engine> make_engine(EngineKind engine, const GridGraph& graph, ReaderFactory& readers) {
  if (engine == EngineKind::GridGraph) return std::make_unique<GridEngine>(graph);
  return std::make_unique<XStreamEngine>(graph, readers);
}

std::unique_ptr<Engine> make_engine(EngineKind engine, const GridGraph& graph, EngineLayout layout, ReaderFactory& readers) {
  layout.name = engine_name(engine);
  if (engine == EngineKind::GridGraph) return std::make_unique<GridEngine>(std::move(layout));
  return std::make_unique<XStreamEngine>(graph, std::move(layout), readers);
}

}  // namespace graphso
