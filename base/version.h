// The release this source tree is; `graphso --version` prints it.
#pragma once

namespace graphso {

inline constexpr const char* kVersion = "0.9.0";

}  // namespace graphso
