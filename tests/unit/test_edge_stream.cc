// The edge stream parser (datasets/edge_stream.h): text and binary, taken in any pieces, hand out
// the same operations; malformed input is an error naming where, after everything before it.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"
#include "datasets/edge_stream.h"

using namespace graphso;

namespace {

std::span<const std::byte> bytes_of(const std::string& text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

// Parses `stream` fed in pieces of `piece` bytes.
std::vector<StreamOp> parse(std::span<const std::byte> stream, size_t piece, EdgeStreamOptions options = {"s"}) {
  EdgeStreamParser parser(std::move(options));
  std::vector<StreamOp> out;
  for (size_t at = 0; at < stream.size(); at += piece) parser.feed(stream.subspan(at, std::min(piece, stream.size() - at)), out);
  parser.finish(out);
  return out;
}

bool same(const std::vector<StreamOp>& a, const std::vector<StreamOp>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].deletion != b[i].deletion || a[i].edge.src != b[i].edge.src || a[i].edge.dst != b[i].edge.dst ||
        a[i].edge.weight != b[i].edge.weight)
      return false;
  return true;
}

// The message of the Error parsing throws, and how many operations were handed out before it.
std::pair<std::string, size_t> error_of(std::span<const std::byte> stream, EdgeStreamOptions options = {"s"}) {
  EdgeStreamParser parser(std::move(options));
  std::vector<StreamOp> out;
  try {
    parser.feed(stream, out);
    parser.finish(out);
  } catch (const Error& e) {
    return {e.what(), out.size()};
  }
  FAIL("no error");
  return {};
}

}  // namespace

TEST_CASE("edge stream: text lines in any pieces: insertions, deletions, weights, comments") {
  const std::string text = "# a comment\n0 1 5\r\n1 2 7\n\n- 0 1\n% another\n2 3 9\n- 2 3 4\n3 4 1";
  const std::vector<StreamOp> whole = parse(bytes_of(text), text.size());
  const std::vector<StreamOp> expected = {
      {{0, 1, 5}, false}, {{1, 2, 7}, false}, {{0, 1, 1}, true}, {{2, 3, 9}, false}, {{2, 3, 1}, true}, {{3, 4, 1}, false}};
  REQUIRE(same(whole, expected));
  for (size_t piece : {1, 2, 3, 7, 16}) REQUIRE(same(parse(bytes_of(text), piece), expected));
  EdgeStreamParser parser({"s"});
  std::vector<StreamOp> out;
  parser.feed(bytes_of("- 1 2\n"), out);
  REQUIRE(!parser.kind());  // a deletion says nothing of the weights
  parser.feed(bytes_of("1 2 3\n"), out);
  REQUIRE(parser.kind()->weighted);
  REQUIRE(parser.operations() == 2);
}

TEST_CASE("edge stream: binary frames in any pieces equal what was written") {
  for (bool weighted : {false, true}) {
    const EdgeStreamKind kind{weighted, false};
    std::vector<std::byte> stream = edge_stream_header(kind);
    const std::vector<WeightedEdge> adds = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    const std::vector<WeightedEdge> dels = {{4, 5, 0}};
    append_edge_stream_frames(adds, false, kind, stream);
    append_edge_stream_frames(dels, true, kind, stream);
    std::vector<StreamOp> expected;
    for (const WeightedEdge& e : adds) expected.push_back({{e.src, e.dst, weighted ? e.weight : 1}, false});
    expected.push_back({{4, 5, 1}, true});  // a deletion's weight is not kept
    for (size_t piece = 1; piece <= stream.size(); ++piece) REQUIRE(same(parse(stream, piece), expected));
    EdgeStreamParser parser({"s"});
    std::vector<StreamOp> out;
    parser.feed(stream, out);
    REQUIRE(parser.kind()->weighted == weighted);
  }
}

TEST_CASE("edge stream: malformed input names where, after handing out what came before") {
  SECTION("a text line of another column count") {
    auto [message, before] = error_of(bytes_of("0 1\n1 2\n2 3 4\n"));
    REQUIRE(message == "s:3: 3 columns, where the stream's first edge has 2");
    REQUIRE(before == 2);
  }
  SECTION("a text id past the limit") {
    EdgeStreamOptions options{"s"};
    options.vertex_limit = 100;
    auto [message, before] = error_of(bytes_of("0 1\n1 100\n"), options);
    REQUIRE(message == "s:2: destination id 100 is out of range (largest allowed id is 99)");
    REQUIRE(before == 1);
  }
  SECTION("a text line with one column, or a bare '-'") {
    REQUIRE(error_of(bytes_of("0 1\n7\n")).first == "s:2: expected 'SRC DST [WEIGHT]', found 1 columns");
    REQUIRE(error_of(bytes_of("-\n")).first == "s:1: expected '- SRC DST [WEIGHT]', found 0 columns");
  }
  const EdgeStreamKind kind{false, false};
  std::vector<std::byte> stream = edge_stream_header(kind);
  const std::vector<WeightedEdge> adds = {{1, 2, 1}, {3, 4, 1}};
  append_edge_stream_frames(adds, false, kind, stream);
  const size_t second = stream.size();
  append_edge_stream_frames(adds, true, kind, stream);
  SECTION("a damaged header") {
    std::vector<std::byte> damaged = stream;
    damaged[9] ^= std::byte{1};
    REQUIRE(error_of(damaged).first == "s: the stream header's checksum does not match (damaged header)");
  }
  SECTION("a damaged record: its frame is refused whole") {
    std::vector<std::byte> damaged = stream;
    damaged[second + 8] ^= std::byte{1};
    auto [message, before] = error_of(damaged);
    REQUIRE(message == "s: frame 2 (byte " + std::to_string(second) + ") does not match its checksum (damaged)");
    REQUIRE(before == 2);
  }
  SECTION("a frame claiming no records") {
    std::vector<std::byte> damaged(stream.begin(), stream.begin() + static_cast<std::ptrdiff_t>(second));
    damaged.resize(damaged.size() + 8);
    REQUIRE_THAT(error_of(damaged).first, Catch::Contains("frame 2 (byte " + std::to_string(second) + ") claims 0 records"));
  }
  SECTION("the stream cut inside a frame") {
    std::vector<std::byte> cut(stream.begin(), stream.end() - 3);
    auto [message, before] = error_of(cut);
    REQUIRE(message == "s: the stream ends inside frame 2 (byte " + std::to_string(second) + "): 21 of its bytes arrived");
    REQUIRE(before == 2);
  }
  SECTION("a binary id past the limit") {
    EdgeStreamOptions options{"s"};
    options.vertex_limit = 4;
    auto [message, before] = error_of(stream, options);
    REQUIRE(message == "s: frame 1 (byte 16), record 2: edge 3 -> 4 names an id past the largest allowed (3)");
    REQUIRE(before == 0);
  }
}

TEST_CASE("edge stream: the worked example of docs/formats.md, byte for byte") {
  const EdgeStreamKind kind{true, false};
  std::vector<std::byte> stream = edge_stream_header(kind);
  const std::vector<WeightedEdge> adds = {{0, 1, 5}, {1, 2, 7}};
  const std::vector<WeightedEdge> dels = {{0, 1, 0}};
  append_edge_stream_frames(adds, false, kind, stream);
  append_edge_stream_frames(dels, true, kind, stream);
  const std::vector<uint8_t> documented = {
      0x47, 0x53, 0x4f, 0x53, 0x54, 0x52, 0x4d, 0x31, 0x01, 0x00, 0x00, 0x00, 0xdc, 0x34, 0x82, 0x3d,
      0x02, 0x00, 0x00, 0x00, 0xec, 0x67, 0x4c, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
      0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
      0x01, 0x00, 0x00, 0x80, 0x2b, 0x00, 0xf8, 0xe1, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  REQUIRE(stream.size() == documented.size());
  REQUIRE(std::memcmp(stream.data(), documented.data(), documented.size()) == 0);
  const std::string text = "0 1 5\n1 2 7\n- 0 1\n";
  REQUIRE(same(parse(stream, 5), parse(bytes_of(text), 3)));
}
