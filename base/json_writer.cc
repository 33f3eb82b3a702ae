#include "base/json_writer.h"

#include <fmt/format.h>

#include <cmath>

namespace graphso {

std::string json_escape(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += c;
    }
  }
  return out + "\"";
}

void JsonWriter::prefix(const std::string& key) {
  if (!first_.empty()) {
    if (!first_.back()) out_ += ",";
    first_.back() = false;
    out_ += "\n" + std::string(2 * first_.size(), ' ');
  }
  if (!key.empty()) out_ += json_escape(key) + ": ";
}

JsonWriter& JsonWriter::begin_object(const std::string& key) {
  prefix(key);
  out_ += "{";
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  first_.pop_back();
  out_ += "\n" + std::string(2 * first_.size(), ' ') + "}";
  if (first_.empty()) out_ += "\n";
  return *this;
}

JsonWriter& JsonWriter::begin_array(const std::string& key) {
  prefix(key);
  out_ += "[";
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  first_.pop_back();
  out_ += "\n" + std::string(2 * first_.size(), ' ') + "]";
  return *this;
}

JsonWriter& JsonWriter::field(const std::string& key, const std::string& value) {
  prefix(key);
  out_ += json_escape(value);
  return *this;
}

JsonWriter& JsonWriter::field(const std::string& key, const char* value) {
  return field(key, std::string(value));
}

JsonWriter& JsonWriter::field(const std::string& key, double value) {
  prefix(key);
  out_ += std::isfinite(value) ? fmt::format("{:.6g}", value) : "null";
  return *this;
}

JsonWriter& JsonWriter::field(const std::string& key, uint64_t value) {
  prefix(key);
  out_ += fmt::format("{}", value);
  return *this;
}

JsonWriter& JsonWriter::field(const std::string& key, int64_t value) {
  prefix(key);
  out_ += fmt::format("{}", value);
  return *this;
}

JsonWriter& JsonWriter::field(const std::string& key, bool value) {
  prefix(key);
  out_ += value ? "true" : "false";
  return *this;
}

}  // namespace graphso
