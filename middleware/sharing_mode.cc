#include "middleware/sharing_mode.h"

#include "base/error.h"

namespace graphso {

Sharing parse_sharing(const std::string& name) {
  if (name == "independent") return Sharing::Independent;
  if (name == "partition") return Sharing::Partition;
  if (name == "chunk") return Sharing::Chunk;
  fail("unknown sharing mode '{}' (expected independent, partition or chunk)", name);
}

const char* sharing_name(Sharing sharing) {
  switch (sharing) {
    case Sharing::Independent: return "independent";
    case Sharing::Partition: return "partition";
    case Sharing::Chunk: return "chunk";
  }
  return "?";
}

}  // namespace graphso
