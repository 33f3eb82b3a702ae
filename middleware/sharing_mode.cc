#include "middleware/sharing_mode.h"

#include "base/enum_names.h"
#include "base/error.h"

namespace graphso {

namespace {
constexpr EnumName<Sharing> kSharingNames[] = {
    {Sharing::Independent, "independent"}, {Sharing::Partition, "partition"}, {Sharing::Chunk, "chunk"}};
}  // namespace

Sharing parse_sharing(const std::string& name) { return parse_enum<Sharing>(kSharingNames, name, "sharing mode"); }
const char* sharing_name(Sharing sharing) { return enum_name<Sharing>(kSharingNames, sharing); }

}  // namespace graphso
