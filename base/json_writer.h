// A small streaming JSON emitter for reports (numbers, strings, nested objects/arrays).
// Keys and values are escaped; commas are placed automatically.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace graphso {

class JsonWriter {
 public:
  JsonWriter& begin_object(const std::string& key = "");
  JsonWriter& end_object();
  JsonWriter& begin_array(const std::string& key = "");
  JsonWriter& end_array();
  JsonWriter& field(const std::string& key, const std::string& value);
  JsonWriter& field(const std::string& key, const char* value);
  JsonWriter& field(const std::string& key, double value);
  JsonWriter& field(const std::string& key, uint64_t value);
  JsonWriter& field(const std::string& key, int64_t value);
  JsonWriter& field(const std::string& key, uint32_t value) { return field(key, uint64_t{value}); }
  JsonWriter& field(const std::string& key, int value) { return field(key, int64_t{value}); }
  JsonWriter& field(const std::string& key, bool value);
  const std::string& text() const { return out_; }

 private:
  void prefix(const std::string& key);
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
};

std::string json_escape(const std::string& text);

}  // namespace graphso
