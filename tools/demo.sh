#!/usr/bin/env bash
# `make demo`: a road-like graph with id locality (512 x 512 intersections, Z-order ids), the
# paper's batch W1 = {delta-PageRank (tolerance 0.01), WCC, SSSP, BFS} from the centre of the
# map, a graph-data budget of a quarter of the graph's edge bytes, in every sharing mode of the
# GridGraph engine and the two shared modes of the X-Stream engine, then the comparison. About a
# minute on a 2-core machine. Last, the same edges go through the evolving-graph store (ingest,
# store-stat, snapshot) and BFS, SSSP and WCC run on the snapshot, then on a dgap store in place.
set -euo pipefail
build=${1:-build}
graphso="$build/graphso"
out=demo-out
mkdir -p "$out"
# Results of a demo run by an older graphso (no results marker) would be refused as --out.
rm -rf "$out"/results-*

echo "== generating a 512 x 512 road grid"
center=$("$graphso" generate road --width 512 --height 512 --weighted --seed 1 -o "$out/road.bin" |
         sed -n 's/.*centre intersection: vertex \([0-9]*\).*/\1/p')
echo "== preparing it (GridGraph and X-Stream layouts + TChunk tables of 16 KiB chunks)"
"$graphso" prep "$out/road.bin" -o "$out/road" --engine both --chunk-size 16K
edges=$("$graphso" inspect "$out/road" | sed -n 's/^edges: *//p')
budget=$((edges * 12 / 4))
jobs=(--job pagerank-delta:tolerance=0.01 --job wcc --job "sssp:source=$center" --job "bfs:source=$center")
for mode in independent partition chunk; do
  echo "== W1 in $mode mode"
  "$graphso" run "$out/road" "${jobs[@]}" --sharing "$mode" --graph-mem "$budget" --chunk-size 16K \
    --out "$out/results-$mode" --report "$out/report-$mode.json"
done
for mode in partition chunk; do
  echo "== W1 in $mode mode, X-Stream engine"
  "$graphso" run "$out/road" "${jobs[@]}" --engine xstream --sharing "$mode" --graph-mem "$budget" --chunk-size 16K \
    --out "$out/results-xstream-$mode" --report "$out/report-xstream-$mode.json"
done
for job in 0-pagerank-delta 1-wcc 2-sssp 3-bfs; do
  for other in partition independent xstream-partition xstream-chunk; do
    cmp -s "$out/results-$other/$job.txt" "$out/results-chunk/$job.txt" ||
      [ "$job" = 0-pagerank-delta ] || { echo "demo: $job differs between chunk and $other" >&2; exit 1; }
  done
done
echo
echo "== W1 on a 512 x 512 road grid, graph budget $((budget / 1024)) KiB (a quarter of the edges); BFS/SSSP/WCC results identical in all runs"
/usr/bin/python3 tools/plot_report.py --table "$out/report-independent.json" "$out/report-partition.json" "$out/report-chunk.json" \
  "$out/report-xstream-partition.json" "$out/report-xstream-chunk.json"
/usr/bin/python3 tools/plot_report.py --png "$out/rounds.png" "$out/report-independent.json" "$out/report-partition.json" "$out/report-chunk.json" >/dev/null

echo
echo "== the evolving-graph store: ingest the same edges durably, snapshot the store, run BFS, SSSP and WCC on the snapshot"
rm -rf "$out/road.store" "$out/road.store.new" "$out/road-snapshot" "$out/results-snapshot"
"$graphso" ingest "$out/road.store" --input "$out/road.bin" --threads 2 --log-slots 256K
"$graphso" store-stat "$out/road.store" | grep -E '^(weighted|edges|log_head|checkpoint_seq|block_bytes_live|bytes_used):'
"$graphso" snapshot "$out/road.store" -o "$out/road-snapshot"
"$graphso" run "$out/road-snapshot" --job wcc --job "bfs:source=$center" --job "sssp:source=$center" --sharing chunk \
  --graph-mem "$budget" --out "$out/results-snapshot" >/dev/null
cmp -s "$out/results-snapshot/0-wcc.txt" "$out/results-chunk/1-wcc.txt" &&
  cmp -s "$out/results-snapshot/1-bfs.txt" "$out/results-chunk/3-bfs.txt" &&
  cmp -s "$out/results-snapshot/2-sssp.txt" "$out/results-chunk/2-sssp.txt" ||
  { echo "demo: the snapshot's BFS, SSSP or WCC differs from the prepared graph's" >&2; exit 1; }
echo "BFS, SSSP (over the ingested weights) and WCC on the store's snapshot equal the runs above"
echo "== the same edges in a dgap store, and the jobs run on the store itself (no snapshot)"
rm -rf "$out/road.dgap" "$out/road.dgap.new" "$out/results-store"
"$graphso" ingest "$out/road.dgap" --input "$out/road.bin" --threads 2 --log-slots 256K --store-mode dgap | tail -n 2
"$graphso" run "$out/road.dgap" --job wcc --job "bfs:source=$center" --job "sssp:source=$center" --sharing chunk \
  --graph-mem "$budget" --out "$out/results-store" | grep '^store '
cmp -s "$out/results-store/0-wcc.txt" "$out/results-chunk/1-wcc.txt" &&
  cmp -s "$out/results-store/1-bfs.txt" "$out/results-chunk/3-bfs.txt" &&
  cmp -s "$out/results-store/2-sssp.txt" "$out/results-chunk/2-sssp.txt" ||
  { echo "demo: BFS, SSSP or WCC on the dgap store differs from the prepared graph's" >&2; exit 1; }
echo "BFS, SSSP and WCC run on the dgap store in place equal the runs above"
