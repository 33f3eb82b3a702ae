// `make bench-quick`: the benchmark's every experiment on small generated graphs. What is checked
// is that it runs and leaves well-formed output (valid JSON with every experiment's data, a
// summary with every section, a PNG per plotted experiment), not how fast anything was.
#include <catch2/catch.hpp>

#include <filesystem>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

TEST_CASE("bench --quick runs every experiment and writes results, summary and plots") {
  TempDir dir;
  std::string out = dir.file("out");
  CliResult bench = run_program({"/usr/bin/python3", "tools/bench/bench.py", "--quick", "--graphso",
                                 std::filesystem::absolute(graphso_binary()).string(), "--work", dir.file("work"), "--out",
                                 out});
  INFO("stderr: " << bench.err);
  REQUIRE(bench.status == 0);

  CliResult json = run_program({"/usr/bin/python3", "-c",
                                "import json, sys\n"
                                "r = json.load(open(sys.argv[1]))\n"
                                "names = ['limit', 'modes', 'workloads', 'cache', 'chunk_size', 'concurrency', 'arrivals', 'budgets', 'orders', 'engines', 'memory', 'store', 'evolving', 'evolving_steps', 'store_growth', 'evolving_stream', 'evolving_versions', 'store_insert', 'verify', 'cpu', 'async', 'encoding', 'defaults', 'settings', 'sweep', 'many_jobs', 'inmemory', 'graphalytics', 'spark']\n"
                                "assert sorted(r['experiments']) == sorted(names), r['experiments'].keys()\n"
                                "assert r['disk_bytes_per_second'] > 0\n"
                                "for n in names: assert r['experiments'][n]['data'], n\n"
                                "m = r['experiments']['modes']['data']\n"
                                "for g in m.values():\n"
                                "    assert set(g['modes']) == {'independent', 'partition', 'chunk'}\n"
                                "    assert g['min_bytes'] > 0\n"
                                "    for run in g['modes'].values(): assert run['bytes_read'] > 0 and run['wall_seconds'] > 0\n"
                                "assert len(r['experiments']['workloads']['data']) == 8\n"
                                "assert len(r['experiments']['defaults']['data']['jobs']) == 10\n"
                                "for g in r['experiments']['engines']['data'].values():\n"
                                "    assert set(g['engines']) == {'gridgraph', 'xstream'}\n"
                                "    for e, runs in g['engines'].items():\n"
                                "        assert set(runs) == {'independent', 'partition', 'chunk'}\n"
                                "        for run in runs.values(): assert run['engine'] == e and run['bytes_read'] > 0\n"
                                "    assert g['engines']['xstream']['partition']['updates'] > 0\n"
                                "ran = [x for x in r['experiments']['memory']['data'].values() if 'failed' not in x]\n"
                                "assert len({(x['graph'], x['engine'], x['mode']) for x in ran}) == 4, len(ran)\n"
                                "for x in ran: assert x['peak_rss_bytes'] > 0 and x['mem_bytes'] > x['graph_budget_bytes'] > 0\n"
                                "assert len(r['experiments']['store']['data']) == 2\n"
                                "ev = r['experiments']['evolving']['data']\n"
                                "assert len(ev) == 2\n"
                                "for g in ev.values():\n"
                                "    assert set(g['modes']) == {'xpgraph', 'dgap', 'gear', 'ftgraph', 'naive'} and g['prepared_run']['wall_seconds'] > 0\n"
                                "    for mode, x in g['modes'].items():\n"
                                "        assert x['ingest']['mode'] == mode and x['ingest']['edges'] > 0, mode\n"
                                "        s = x['in_place']['store']\n"
                                "        # ftgraph keeps each edge once (R-MAT repeats some)\n"
                                "        assert s['mode'] == mode and (s['edges'] == g['edges'] - 1000 if mode != 'ftgraph' else 0.8 * g['edges'] < s['edges'] <= g['edges'] - 1000), (mode, s)\n"
                                "        assert (s['pages_in_place'] > 0 and s['pages_rewritten'] == 0) if mode == 'dgap' else s['pages_in_place'] == 0\n"
                                "        assert x['snapshot_seconds'] > 0 and x['fresh_run_seconds'] > 0\n"
                                "        for e, pair in x['engines'].items():\n"
                                "            assert pair['in_place']['engine'] == e and pair['prepared']['engine'] == e, (mode, e)\n"
                                "            assert pair['in_place']['store']['mode'] == mode and 'store' not in pair['prepared'], (mode, e)\n"
                                "        assert set(x['engines']) == {'gridgraph', 'xstream'}, mode\n"
                                "gr = r['experiments']['store_growth']['data']\n"
                                "assert set(gr) == {'xpgraph', 'naive', 'dgap', 'gear', 'ftgraph'}, sorted(gr)\n"
                                "for mode, x in gr.items():\n"
                                "    assert x['wcc_equal'] and x['grown_file_bytes'] > 0 and x['steps_ingest_seconds'] > 0, (mode, x)\n"
                                "assert sum(x['growths'] for x in gr.values()) > 0, gr\n"
                                "es = r['experiments']['evolving_stream']['data']\n"
                                "assert set(es['modes']) == {'xpgraph', 'naive', 'dgap', 'gear', 'ftgraph'}, sorted(es['modes'])\n"
                                "for mode, x in es['modes'].items():\n"
                                "    for s in x['stream']:\n"
                                "        assert s['ingest']['operations'] == x['edges'] == s['client']['edges'], (mode, s)\n"
                                "        assert s['client']['acknowledgements'] >= 2 and s['client']['latency_ms_p99'] > 0, (mode, s)\n"
                                "    assert all(f['edges'] == x['edges'] for f in x['file']), mode\n"
                                "for mode in ('xpgraph', 'dgap'):\n"
                                "    b = es['beside_' + mode]\n"
                                "    assert b['alone'] and b['beside'] and b['runs'] and b['idle_start'] and b['idle_end'], (mode, b)\n"
                                "ev = r['experiments']['evolving_versions']['data']\n"
                                "for both in ev['runs']['both']:\n"
                                "    assert both['store']['versions'] == [ev['v1'], ev['v2']], both['store']\n"
                                "    assert sorted(j['version'] for j in both['jobs']) == [ev['v1']] * 3 + [ev['v2']] * 3, both['jobs']\n"
                                "    assert both['store']['edges_inserted_apart'] == ev['v2'] - ev['edges'], both['store']\n"
                                "assert all('versions' not in x['store'] for x in ev['runs']['v2'] + ev['runs']['v1']), ev['runs']\n"
                                "assert ev['runs']['both'][0]['bytes_read'] <= 1.1 * ev['runs']['v2'][0]['bytes_read'], ev['runs']\n"
                                "st = r['experiments']['evolving_steps']['data']\n"
                                "assert len(st) == 2, sorted(st)\n"
                                "for name, g in st.items():\n"
                                "    assert len(g['tenths']) == 10 and g['tenths'][-1]['step'] == g['steps'], name\n"
                                "    for t in g['tenths']:\n"
                                "        for mode, m in t['modes'].items():\n"
                                "            assert m['run_seconds'] > 0, (name, mode)\n"
                                "            if mode != 'dgap': assert m['traversal_seconds'] > 0 and m['lists_read'] > 0 and m['store_pages_read'] > 0, (name, mode)\n"
                                "        # gear reads one list per vertex with out-edges; xpgraph a chain of blocks\n"
                                "        assert t['modes']['gear']['lists_read'] < t['modes']['xpgraph']['lists_read'], (name, t['step'])\n"
                                "    s = g['store_stat']\n"
                                "    assert int(s['gear']['relocations']) > 0 and float(s['gear']['page_writes_max_over_mean']) >= 1, s['gear']\n"
                                "    if 'gear, levelling off' in s:\n"
                                "        assert int(s['gear, levelling off']['wear_moves']) == 0 and int(s['gear']['wear_moves']) > 0\n"
                                "        assert int(s['gear']['page_writes_max']) < int(s['gear, levelling off']['page_writes_max'])\n"
                                "    assert all(g['persisted_line_bytes'][m] > 0 for m in g['persisted_line_bytes'])\n"
                                "rg = r['experiments']['many_jobs']['data']['resident']\n"
                                "assert [(x['algo'], x['jobs']) for x in rg] == [('BFS', 8), ('SSSP', 4)] * 2, rg\n"
                                "for x in rg:\n"
                                "    one, grouped, heavy, apart = x['reports']\n"
                                "    # resident; the group takes light rounds, the same group through the chunks takes none\n"
                                "    assert all(y['graph_resident'] for y in x['reports']), x['graph']\n"
                                "    assert grouped['runnables'][0]['method'] in ('bit-parallel bfs', 'sssp lanes') and heavy['light_rounds'] == 'off'\n"
                                "    assert len(apart['runnables']) == x['jobs'] and len(grouped['runnables']) == 1\n"
                                "im = r['experiments']['inmemory']['data']\n"
                                "assert len(im['graphs']) == 2 and set(im['store']) == {'BFS', 'PageRank x10'}, im.keys()\n"
                                "for g in im['graphs'].values():\n"
                                "    assert g['textbook']['bfs_reached'] > 1 and g['textbook']['pagerank_sum'] > 0\n"
                                "    # Dijkstra reaches what the BFS reaches; distances are at least the levels\n"
                                "    assert g['textbook']['sssp_reached'] == g['textbook']['bfs_reached'], g['textbook']\n"
                                "    assert g['textbook']['sssp_distance_sum'] >= g['textbook']['bfs_level_sum'] and g['textbook']['wcc_components'] >= 1\n"
                                "    # the budget holds the graph decoded; the second batch forces packed; after the cases, out of core;\n"
                                "    # then BFS, SSSP and W1 with light rounds off\n"
                                "    forms = [x['cache_form'] for x in g['reports']]\n"
                                "    q = 2 * len(g['cases'])\n"
                                "    assert forms[:2] == ['decoded', 'packed'] and forms[q] == 'packed', forms\n"
                                "    assert len(g['reports']) == q + 4 and all(x['light_rounds'] == 'off' for x in g['reports'][q + 1:])\n"
                                "    assert all(x['light_rounds'] != 'off' for x in g['reports'][:q])\n"
                                "    # PageRank reads every chunk, and the budget keeps them all, in either form\n"
                                "    pr = g['cases'].index('PageRank x10')\n"
                                "    assert all(x['cached_chunks'] == x['chunks'] for x in g['reports'][2 * pr:2 * pr + 2])\n"
                                "    # the BFS that joins once the graph is resident is timed on its own, in rounds then passes by default\n"
                                "    warm = g['once_resident']\n"
                                "    assert min(warm['default']) > 0 and min(warm['passes']) > 0 and warm['bfs']['algo'] == 'bfs'\n"
                                "    assert min(warm['light_rounds_off']) > 0\n"
                                "    assert warm['bfs']['arrive_after'] == 1 and 'bottom_up_rounds' in warm['bfs'], warm['bfs']\n"
                                "    # PageRank x10 timed once resident: its own ten iterations, after the graph was read\n"
                                "    assert min(warm['pagerank']) > 0 and warm['pagerank_runnable']['iterations'] == 10, warm['pagerank_runnable']\n"
                                "ga = r['experiments']['graphalytics']['data']\n"
                                "d = ga['datasets'][0]\n"
                                "# all six algorithms run, each timed and measured in EVPS; one batch of the six beside them\n"
                                "assert [a['algorithm'] for a in d['algorithms']] == ['bfs', 'cdlp', 'lcc', 'pr', 'sssp', 'wcc'] and ga['ok'], d\n"
                                "assert all(a['ok'] and a['evps'] > 0 and a['makespan_seconds'] >= a['processing_seconds'] > 0 for a in d['algorithms'])\n"
                                "assert d['load_seconds'] > 0 and d['batch']['jobs'] == 6 and d['batch']['makespan_seconds'] > 0, d['batch']\n"
                                "sp = r['experiments']['spark']['data']\n"
                                "# the same job file on graphso and on Spark (--quick: GraphX alone), every job timed with its rounds\n"
                                "assert len(sp) == 1\n"
                                "for g in sp.values():\n"
                                "    assert g['graphso']['wall_seconds'] > 0 and set(g['spark']) == {'graphx'}, g.keys()\n"
                                "    for backend, x in g['spark'].items():\n"
                                "        assert x['backend'] == backend and x['session_seconds'] > 0 and x['load_seconds'] > 0\n"
                                "        assert len(x['jobs']) == 4 and all(j['seconds'] > 0 and j['iterations'] > 0 and j['converged'] for j in x['jobs'])\n"
                                "ins = r['experiments']['store_insert']['data']\n"
                                "assert {(x['tier'], x['input']) for x in ins} >= {('disk', 'R-MAT insert'), ('disk', 'with 10% repeats')}, ins\n"
                                "for x in ins:\n"
                                "    assert set(x['runs']) == {'xpgraph', 'dgap', 'gear', 'ftgraph'}\n"
                                "    for mode, runs in x['runs'].items():\n"
                                "        for run in runs: assert run['mode'] == mode and run['edges'] > 0 and run['persisted_line_bytes'] > 0\n"
                                "    # set semantics: the repeats are found and not written again\n"
                                "    if x['input'] == 'with 10% repeats': assert x['runs']['ftgraph'][0]['duplicates'] >= x['runs']['ftgraph'][0]['edges'] // 11\n"
                                "for runs in r['experiments']['store']['data'].values():\n"
                                "    assert set(runs) == {'xpgraph', 'naive'}\n"
                                "    for mode, run in runs.items():\n"
                                "        assert run['mode'] == mode and run['edges'] > 0 and run['edges_per_second'] > 0\n"
                                "        assert run['persisted_line_bytes'] >= 8 * run['edges']\n"
                                "v = r['experiments']['verify']['data']\n"
                                "assert len(v) == 6, len(v)\n"
                                "for x in v.values():\n"
                                "    assert x['on']['reads_verified'] and not x['off']['reads_verified']\n"
                                "    assert x['on']['bytes_read'] == x['off']['bytes_read'] > 0\n"
                                "    assert x['on']['page_sums_bytes'] > 0 and x['off']['page_sums_bytes'] == 0\n"
                                "c = r['experiments']['cpu']['data']\n"
                                "uncut = {k: x for k, x in c.items() if k.endswith(' / no cutoff')}\n"
                                "assert len(c) == 15 and len(uncut) == 3, sorted(c)\n"
                                "for k, x in c.items():\n"
                                "    if k not in uncut: assert x['cores_used'] > 0 and x['ns_per_edge'] > 0 and x['edges_processed'] > 0\n"
                                "for x in uncut.values(): assert x['edges_processed'] > 0 and all(j['reentry_loads_sat_out'] == 0 for j in x['jobs'])\n"
                                "a = r['experiments']['async']['data']\n"
                                "w1 = [x for x in a.values() if 'workload' not in x]\n"
                                "assert len(w1) == 6, len(w1)\n"
                                "for x in w1:\n"
                                "    on, off, passes = x['runs']['on'], x['runs']['off'], x['runs']['passes']\n"
                                "    assert off['reentries'] == 0 and passes['reentries'] == 0, (off['reentries'], passes['reentries'])\n"
                                "    assert all(j['reentry_loads_sat_out'] == 0 for j in x['runs']['uncut']['jobs'])\n"
                                "    late = x['runs']['late']\n"
                                "    assert off['late_chunks'] == 0 and passes['late_chunks'] == 0 and on['late_chunks'] == 0\n"
                                "    assert late['late_join'] and not on['late_join'] and x['runs']['source']['pass_order'] == 'source'\n"
                                "    assert all(j['reentries'] == 0 for j in on['jobs'] if not j['async'])\n"
                                "    assert abs(x['ratio']['bytes passes'] - passes['bytes_read'] / off['bytes_read']) < 1e-9\n"
                                "    assert all(j['async'] for j in on['jobs'] if j['algo'] != 'wcc'), on['jobs']\n"
                                "    assert not any(j['async'] for j in off['jobs'])\n"
                                "    assert on['bytes_read'] > 0 and off['bytes_read'] > 0 and on['engine'] == off['engine'] == x['engine']\n"
                                "    assert abs(x['ratio']['bytes'] - on['bytes_read'] / off['bytes_read']) < 1e-9\n"
                                "assert any(x['runs']['late']['late_chunks'] > 0 for x in w1)\n"
                                "wl = {(x['engine'], x['workload']): x['runs'] for x in a.values() if 'workload' in x}\n"
                                "assert sorted(wl) == sorted((e, w) for e in ['gridgraph', 'xstream'] for w in ['W5', 'kcore']), sorted(wl)\n"
                                "for (e, w), runs in wl.items():\n"
                                "    on, off = runs['on'], runs['off']\n"
                                "    assert on['engine'] == off['engine'] == e and on['bytes_read'] > 0 and off['bytes_read'] > 0\n"
                                "    assert all(j['async'] for j in on['jobs']) and not any(j['async'] for j in off['jobs']), (e, w)\n"
                                "    assert sum(j['iterations'] for j in on['jobs']) < sum(j['iterations'] for j in off['jobs']), (e, w)\n"
                                "se = r['experiments']['settings']['data']['runs']\n"
                                "assert len(se) == 2 * 13, len(se)\n"
                                "for x in se:\n"
                                "    rep = x['report']\n"
                                "    assert rep['bytes_read'] > 0 and rep['mode'] == x['mode'], (x['graph'], x['label'])\n"
                                "    assert rep['omp_wait_policy'] == 'passive', rep['omp_wait_policy']\n"
                                "    if x['label'] == 'W1 xstream': assert rep['engine'] == 'xstream' and rep['update_spills'] == 0, rep['update_spills']\n"
                                "    if x['label'] == 'W1 raw': assert rep['encoding'] == 'raw'\n"
                                "    pr = [j for j in rep['jobs'] if j['algo'] == 'pagerank-delta']\n"
                                "    if x['label'] == 'W1 async on': assert pr[0]['async'] and pr[0]['sync_from_round'] == 0\n"
                                "    if x['label'] == 'W1 async off': assert not pr[0]['async']\n"
                                "    # R-MAT's delta-PageRank passes do not pay: the default falls back to rounds\n"
                                "    if x['label'] == 'W1 default' and x['graph'].startswith('R-MAT'): assert pr[0]['sync_from_round'] > 0, pr\n"
                                "assert len(r['experiments']['settings']['data']['ratios']) == 2 * 9\n"
                                "sw = r['experiments']['sweep']['data']\n"
                                "assert len(sw['rows']) == 2 * 3, len(sw['rows'])\n"
                                "for x in sw['rows']:\n"
                                "    runs = x['runs']\n"
                                "    assert set(runs) == {'default chunk', 'async on chunk', 'async off chunk', 'default partition'}\n"
                                "    assert runs['default partition']['mode'] == 'partition' and runs['default chunk']['mode'] == 'chunk'\n"
                                "    assert x['default_over_best'] > 0 and x['chunk_over_partition'] > 0\n"
                                "    if x['workload'] != 'kcore':\n"
                                "        assert not any(j['async'] for j in runs['async off chunk']['jobs'])\n"
                                "        assert all(j['async'] for j in runs['async on chunk']['jobs'] if j['algo'] != 'wcc')\n"
                                "assert set(sw['worst']) == {'default / best', 'chunk / partition'}\n"
                                "print('ok')\n",
                                out + "/results.json"});
  INFO("results.json check: " << json.out << json.err);
  REQUIRE(json.status == 0);

  std::string summary = read_small_file(out + "/summary.md");
  for (const char* section : {"## 1. Batch W1", "## 2. Workloads W1-W8", "## 3. The chunk cache", "## 4. Chunk size",
                              "## 5. Number of concurrent jobs", "## 6. Staggered arrivals", "## 7. Memory budgets",
                              "## 8. Vertex orders", "## 9. Both engines", "## 10. Memory", "## 11. The evolving-graph store", "## 11b. Evolving graphs", "## 11c. Evolving in many small steps", "## 11d. Inserting in place", "## 11g. Jobs at two versions", "## 12. Verified reads", "## 13. CPU", "## 14. Asynchronous passes", "## 17. The paper's W1 on power-law graphs", "## 18. Every graph and workload", "## The physical limit"})
    REQUIRE_THAT(summary, Catch::Contains(section));
  for (const char* figure :
       {"modes", "workloads", "cache", "chunk_size", "concurrency", "arrivals", "budgets", "orders", "engines", "memory", "store", "async"}) {
    INFO("figure " << figure);
    std::string png = read_small_file(out + "/" + figure + ".png");
    REQUIRE(png.size() > 10000);
    REQUIRE(png.substr(0, 8) == "\x89PNG\r\n\x1a\n");
    REQUIRE_THAT(summary, Catch::Contains(std::string("(") + figure + ".png)"));
  }
}

TEST_CASE("bench plots: the layout check refuses cut-off titles, crowded ticks, stray legends and bare log axes") {
  // Every figure bench.py saves passes plots.check_layout first (the test above renders them
  // all); this shows the check fails on each way a plot was once unreadable.
  CliResult check = run_program({"/usr/bin/python3", "tests/e2e/plot_layout_check.py"});
  INFO(check.out << check.err);
  REQUIRE(check.status == 0);
  REQUIRE(check.out == "ok\n");
}
