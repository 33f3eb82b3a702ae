#include "base/enum_names.h"

namespace graphso {

std::string choices_text(const std::vector<std::string>& items) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) out += (k == 0 ? "" : k + 1 == items.size() ? " or " : ", ") + items[k];
  return out;
}

}  // namespace graphso
