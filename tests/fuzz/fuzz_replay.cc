// Every fuzz target in the test suite: each input of its checked-in corpus
// (tests/fuzz/corpus/<target>/), then inputs generated from them by small random mutations (bits
// flipped, bytes set to edge values, ranges cut, repeated or spliced from another input), seeded
// so a failure repeats. A target aborts on a finding, which ends this binary: run_tests.sh counts
// that as a failure. `make fuzz` runs the same targets under libFuzzer for as long as asked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

int fuzz_job_file(const uint8_t* data, size_t size);
int fuzz_edge_list(const uint8_t* data, size_t size);
int fuzz_graph_dir(const uint8_t* data, size_t size);
int fuzz_store(const uint8_t* data, size_t size);
int fuzz_dimacs(const uint8_t* data, size_t size);
int fuzz_gapbs(const uint8_t* data, size_t size);
int fuzz_metis(const uint8_t* data, size_t size);
int fuzz_graphalytics(const uint8_t* data, size_t size);
int fuzz_edge_stream(const uint8_t* data, size_t size);

namespace {

using Input = std::vector<uint8_t>;

std::vector<Input> corpus(const std::string& target) {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator("tests/fuzz/corpus/" + target)) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  std::vector<Input> inputs;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return inputs;
}

Input mutate(const std::vector<Input>& seeds, std::mt19937_64& random) {
  Input input = seeds[random() % seeds.size()];
  const int mutations = 1 + static_cast<int>(random() % 4);
  for (int m = 0; m < mutations; ++m) {
    if (input.empty()) input.push_back(0);
    const size_t at = random() % input.size();
    switch (random() % 6) {
      case 0:  // one bit
        input[at] ^= static_cast<uint8_t>(1u << (random() % 8));
        break;
      case 1: {  // an edge value, little-endian, over 1, 2, 4 or 8 bytes
        static const uint64_t kValues[] = {0, 1, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0xffffffff, 0xffffffffffffffff};
        const uint64_t value = kValues[random() % (sizeof kValues / sizeof kValues[0])];
        const size_t width = size_t{1} << (random() % 4);
        for (size_t k = 0; k < width && at + k < input.size(); ++k) input[at + k] = static_cast<uint8_t>(value >> (8 * k));
        break;
      }
      case 2:  // cut short
        input.resize(at);
        break;
      case 3: {  // a range removed
        const size_t n = std::min<size_t>(input.size() - at, 1 + random() % 64);
        input.erase(input.begin() + static_cast<ptrdiff_t>(at), input.begin() + static_cast<ptrdiff_t>(at + n));
        break;
      }
      case 4: {  // a range repeated
        const size_t n = std::min<size_t>(input.size() - at, 1 + random() % 64);
        const Input piece(input.begin() + static_cast<ptrdiff_t>(at), input.begin() + static_cast<ptrdiff_t>(at + n));
        input.insert(input.begin() + static_cast<ptrdiff_t>(at), piece.begin(), piece.end());
        break;
      }
      default: {  // a range from another input
        const Input& other = seeds[random() % seeds.size()];
        if (other.empty()) break;
        const size_t from = random() % other.size();
        const size_t n = std::min<size_t>({other.size() - from, input.size() - at, 1 + random() % 256});
        std::copy_n(other.begin() + static_cast<ptrdiff_t>(from), n, input.begin() + static_cast<ptrdiff_t>(at));
      }
    }
  }
  return input;
}

void replay(const std::string& target, int (*run)(const uint8_t*, size_t), int generated) {
  const std::vector<Input> seeds = corpus(target);
  REQUIRE(seeds.size() >= 2);
  const uint64_t before = graphso::fuzz::accepted_count();
  for (const Input& input : seeds) run(input.data(), input.size());
  const uint64_t seeds_accepted = graphso::fuzz::accepted_count() - before;
  std::mt19937_64 random(std::hash<std::string>{}(target));
  for (int k = 0; k < generated; ++k) {
    const Input input = mutate(seeds, random);
    run(input.data(), input.size());
  }
  const uint64_t generated_accepted = graphso::fuzz::accepted_count() - before - seeds_accepted;
  // Reaching here means no input crashed or was refused with more than one line. The seeds are
  // mostly valid, so the mutations start past the first checks; some mutations stay valid.
  WARN(target << ": " << seeds_accepted << " of " << seeds.size() << " corpus inputs and " << generated_accepted
              << " of " << generated << " generated ones accepted, the rest refused with one line");
  REQUIRE(seeds_accepted * 2 >= seeds.size());
  REQUIRE(generated_accepted > 0);
  REQUIRE(generated_accepted < static_cast<uint64_t>(generated));
}

}  // namespace

TEST_CASE("fuzz targets over their corpus and generated inputs: job file") { replay("job_file", fuzz_job_file, 4000); }
TEST_CASE("fuzz targets over their corpus and generated inputs: edge list") { replay("edge_list", fuzz_edge_list, 4000); }
TEST_CASE("fuzz targets over their corpus and generated inputs: graph directory") {
  replay("graph_dir", fuzz_graph_dir, 3000);
}
TEST_CASE("fuzz targets over their corpus and generated inputs: store") { replay("store", fuzz_store, 2000); }
TEST_CASE("fuzz targets over their corpus and generated inputs: DIMACS .gr") { replay("dimacs", fuzz_dimacs, 3000); }
TEST_CASE("fuzz targets over their corpus and generated inputs: GAPBS .sg/.wsg") { replay("gapbs", fuzz_gapbs, 3000); }
TEST_CASE("fuzz targets over their corpus and generated inputs: METIS") { replay("metis", fuzz_metis, 3000); }
TEST_CASE("fuzz targets over their corpus and generated inputs: Graphalytics .v/.e") {
  replay("graphalytics", fuzz_graphalytics, 3000);
}
TEST_CASE("fuzz targets over their corpus and generated inputs: edge stream") { replay("edge_stream", fuzz_edge_stream, 4000); }
