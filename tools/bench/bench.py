#!/usr/bin/python3
"""graphso benchmark: the GraphSO paper's experiments at this machine's scale, side by side in one run.

  python3 tools/bench/bench.py [--scale 18] [--quick] [--only EXPERIMENT,...] [--repeats N]

Experiments (each states its graph, budget, chunk size, threads and commit):
  limit        the disk's sequential O_DIRECT bandwidth (measured here) and each job alone
  modes        batch W1 in the three sharing modes, next to the physical limit (Figs. 9, 11, 12)
  workloads    W1-W8 in chunk vs partition mode (Fig. 19)
  cache        chunk cache off and at 10-50% of the budget (Figs. 8, 20)
  chunk_size   chunk sizes from 64 KiB to Formula (1), and the graph's recorded default (Fig. 18)
  concurrency  1, 2, 4, 8, 16 concurrent jobs: jobs/hour and bytes per job
  arrivals     staggered arrivals, lambda = 0, 1, 2, 4 rounds (Fig. 17)
  budgets      graph-data budgets from 1/16 to 1/2 of the graph (Fig. 16)
  orders       vertex orders and read granularity (beyond the paper)
  engines      W1 in both engines (GridGraph, X-Stream) and the three modes
  memory       peak RSS against --mem in both engines, partition and chunk mode, three budgets
  store        the evolving-graph store's ingest (XPGraph) vs the naive baseline: edges/s and
               persisted bytes per edge, R-MAT scale max(--scale, 20) and soc-slashdot, 2 threads
  evolving     every store mode: insert, persisted bytes, jobs on the live store, snapshot, freshness
  evolving_steps  1,000 small steps (R-MAT and a skewed stream): store traversal after each tenth, gear vs
               xpgraph (and dgap), relocation bytes, page wear with levelling on and off
  store_growth every mode created from one edge, fed R-MAT in 1,000 steps: file size, growths, WCC equal
  evolving_stream  R-MAT through a pipe in 100-edge writes (--commit-every 10ms) against one 64 K-batch ingest, every
               mode: rate and acknowledgement latency; ingest beside 4 `run STORE` batches against each alone
  store_insert the ftgraph tree store's insert rate and persisted bytes against xpgraph and dgap, with 10%
               repeats too, two batch sizes, the store on the disk and on tmpfs
  verify       verified reads: --verify-reads on vs off
  cpu          cores used and ns per edge, every mode, 1 and 2 threads (GridGraph's figures quoted)
  async        asynchronous passes, re-entry, late join: W1's settings, then W1-W8 and k-core with --async on vs off,
               both engines, real graphs in two orders
  settings     the paper's W1 (and W1 with PageRank x20) on R-MAT max(--scale, 22) at 128 MB and ego-twitter at 1/8:
               graphso's defaults against every forced setting (--async, sharing mode, engine, encoding), alternated
  sweep        W1-W8 and k-core on every bench graph: the default against --async on/off, chunk against partition
  inmemory     each job alone and W1 with the graph resident (decoded, and packed) against textbook CSR kernels
               (serial BFS, PageRank pull) on R-MAT 20 symmetrised, soc-slashdot and road-FLA; BFS at 1/4 beside them;
               a dgap store read in place against the same edges prepared
  spark        the same job file on graphso and on Spark local[2], GraphX and DataFrame back ends: W1 on soc-slashdot
               and R-MAT 20 symmetrised, BFS and SSSP on road-FLA; session, load, per-job seconds and rounds
  many_jobs    64 and 256 BFS from giant-component sources against one of them alone (grouped, and 64 with
               --grouping off), R-MAT 20 symmetrised and road-FLA at 1/4 and 1/8 of the stored graph; a mixed batch
               of 64 grouped, ungrouped and as the sum of its jobs alone; 1,000 jobs' time and peak RSS

Writes results.json, summary.md and one PNG per experiment into --out (default bench/out). Ratios
within one run are what to compare: the machines are shared and timings drift 20-40% between
runs. --quick runs the same experiments on small generated graphs (R-MAT scale 14 and a road
grid instead of the real graphs) in under a minute.
"""
import argparse
import json
import os
import random
import statistics
import resource
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plots  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATASETS = os.path.join(REPO, "datasets", "data")  # the real graphs shipped in the repository
QUICK_ROAD_SIDE = 128  # --quick's stand-in for the real graphs: a 128 x 128 road grid
EXPERIMENTS = ["limit", "modes", "workloads", "cache", "chunk_size", "concurrency", "arrivals", "budgets", "orders",
               "engines", "memory", "store", "evolving", "evolving_steps", "store_growth", "evolving_stream", "evolving_versions", "store_insert", "verify", "cpu", "async", "encoding", "defaults",
               "settings", "sweep", "many_jobs", "inmemory", "graphalytics", "spark"]


def log(message):
    print(message, file=sys.stderr, flush=True)


def edge_list_counts(path):
    """A graphso edge list's vertices and edges, from its header."""
    with open(path, "rb") as f:
        return struct.unpack_from("<QQ", f.read(32), 16)


def remove_stores(*stores):
    """Removes each store file and the `.new` a growth or compaction may have left beside it."""
    for store in stores:
        for leftover in (store, store + ".new"):
            if os.path.exists(leftover):
                os.remove(leftover)


def store_rmat(ctx):
    """The store experiments' graph: plain R-MAT at max(--scale, 20) (--quick: its scale), with its scale,
    vertex count and edge count."""
    scale = ctx.args.scale if ctx.args.quick else max(ctx.args.scale, 20)
    edges = ctx.bench.rmat_plain_edges(scale)
    vertices, count = edge_list_counts(edges)
    return edges, scale, vertices, count


def fmt_bytes(b):
    for unit in ["B", "KiB", "MiB", "GiB", "TiB"]:
        if b < 1024 or unit == "TiB":
            return f"{b:.1f} {unit}"
        b /= 1024


def table(headers, rows):
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


class Bench:
    """Runs the graphso binary: graph preparation (cached in the work directory) and batch runs."""

    def __init__(self, args):
        self.graphso = os.path.abspath(args.graphso)
        self.work = os.path.abspath(args.work)
        self.out = os.path.abspath(args.out)
        self.threads = args.threads
        self.textbook = os.path.abspath(args.textbook or os.path.join(os.path.dirname(self.graphso), "textbook"))
        self.stream_client = os.path.join(os.path.dirname(self.graphso), "stream_client")
        os.makedirs(self.work, exist_ok=True)
        os.makedirs(self.out, exist_ok=True)

    def cli(self, *args):
        command = [self.graphso, *map(str, args)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"bench: `{' '.join(command)}` failed ({result.returncode}):\n{result.stderr}")
        return result.stdout

    def prepared(self, graph, encoding="packed"):
        """A graph directory this build can open, in both engines' layouts and in `encoding` (else
        prepared again)."""
        for name in ["meta", "xstream.meta", "grid.row.sums"]:  # the page sums: older preparations have none
            if not os.path.exists(os.path.join(graph, name)):
                return False
        result = subprocess.run([self.graphso, "inspect", graph], capture_output=True, text=True)
        return result.returncode == 0 and f"edge encoding:    {encoding}," in result.stdout

    def prep(self, edges, graph, order="natural", root=None, encoding="packed"):
        """Prepares `graph` from `edges` unless done; returns the order's cost (seconds, memory)."""
        cost_file = graph + ".order-cost.json"
        if not self.prepared(graph, encoding) or not os.path.exists(cost_file):
            log(f"preparing {os.path.basename(graph)} ({order} order, {encoding})")
            started = time.time()
            out = self.cli("prep", edges, "-o", graph, "--engine", "both", "--order", order, "--no-chunks",
                           "--encoding", encoding, *(["--order-root", root] if root is not None else []))
            cost = {"prep_seconds": time.time() - started, "order_seconds": 0.0, "order_memory": "0 B"}
            for line in out.splitlines():
                if "computed in" in line:  # "...: vertex order bfs computed in 0.45 s with 61.5 MiB of memory"
                    words = line.split("computed in ")[1].split()
                    cost["order_seconds"] = float(words[0])
                    cost["order_memory"] = " ".join(words[3:5])
            with open(cost_file, "w") as f:
                json.dump(cost, f)
        with open(cost_file) as f:
            return json.load(f)

    def rmat_edges(self, scale, edge_factor=16, seed=1):
        edges = os.path.join(self.work, f"rmat{scale}-ef{edge_factor}-w.bin")
        if not os.path.exists(edges):
            log(f"generating R-MAT scale {scale}")
            self.cli("generate", "rmat", "--scale", scale, "--edge-factor", edge_factor, "--seed", seed,
                     "--weighted", "--max-weight", 255, "-o", edges)
        return edges

    def rmat_plain_edges(self, scale, edge_factor=16, seed=1):
        """Unweighted R-MAT (the store keeps no weights)."""
        edges = os.path.join(self.work, f"rmat{scale}-ef{edge_factor}.bin")
        if not os.path.exists(edges):
            log(f"generating R-MAT scale {scale} (unweighted)")
            self.cli("generate", "rmat", "--scale", scale, "--edge-factor", edge_factor, "--seed", seed, "-o", edges)
        return edges

    def ingest(self, edges, mode, threads, label):
        """Ingests `edges` into a new store in `mode`; returns the ingest report."""
        store = os.path.join(self.work, "ingest.store")
        report = os.path.join(self.work, "ingest.json")
        remove_stores(store)
        log(f"  {label}: ingest --store-mode {mode}")
        self.cli("ingest", store, "--input", edges, "--store-mode", mode, "--threads", threads, "--report", report)
        os.remove(store)
        with open(report) as f:
            return json.load(f)

    def road_edges(self, side):
        edges = os.path.join(self.work, f"road{side}.bin")
        if not os.path.exists(edges):
            self.cli("generate", "road", "--width", side, "--height", side, "--weighted", "-o", edges)
        return edges

    def symmetric_rmat_edges(self, scale):
        """Weighted R-MAT at `scale`, every edge's reverse added (a small-world graph whose BFS rounds can go
        bottom-up)."""
        edges = os.path.join(self.work, f"rmat{scale}-ef16-w-sym.bin")
        if not os.path.exists(edges):
            log(f"symmetrising R-MAT scale {scale}")
            self.cli("convert", self.rmat_edges(scale), "--symmetrize", "-o", edges)
        return edges

    def dataset_edges(self, file_name, symmetrize):
        edges = os.path.join(self.work, file_name.split(".")[0] + ".bin")
        if not os.path.exists(edges):
            log(f"converting {file_name}")
            self.cli("convert", os.path.join(DATASETS, file_name), "--dedup", "--drop-self-loops",
                     *(["--symmetrize"] if symmetrize else []), "-o", edges)
        return edges

    def graph_info(self, graph):
        info = {}
        for line in self.cli("inspect", graph).splitlines():
            key, _, value = line.partition(":")
            info[key.strip()] = value.strip()
        record = int(info["edge record"].split()[0])
        edges = int(info["edges"])
        hub = int(info["out-degree"].split("(vertex ")[1].split(")")[0])
        return {"vertices": int(info["vertices"]), "edges": edges, "edge_bytes": edges * record, "record": record,
                "layout": info["layout"], "hub": hub}

    def disk_bandwidth(self, size_mib):
        """Sequential O_DIRECT read bandwidth of the work directory's device, on a scratch file."""
        scratch = os.path.join(self.work, "scratch.bin")
        if not os.path.exists(scratch) or os.path.getsize(scratch) != size_mib << 20:
            block = os.urandom(1 << 20)
            with open(scratch, "wb") as f:
                for _ in range(size_mib):
                    f.write(block)
                os.fsync(f.fileno())
        out = self.cli("disk-bandwidth", scratch, "--limit", f"{size_mib}M")
        values = key_values(out)
        self.random_reads_per_second = float(values["random_reads_per_second"])
        return float(values["bytes_per_second"])

    def run(self, graph, jobs, sharing, graph_mem, label, extra=(), job_file=None, threads=None):
        """One batch; returns its report (without the per-round records) or {"failed": message}.
        threads: this run's --threads instead of the bench's."""
        report = os.path.join(self.work, "report.json")
        args = ["run", graph, "--sharing", sharing, "--graph-mem", graph_mem, "--report", report, *extra]
        if threads or self.threads:
            args += ["--threads", threads or self.threads]
        if job_file:
            args += ["--jobs", job_file]
        for job in jobs:
            args += ["--job", job]
        log(f"  {label}: {sharing} {' '.join(map(str, extra))}")
        started = time.time()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        result = subprocess.run([self.graphso, *map(str, args)], capture_output=True, text=True)
        user_cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu_before
        if result.returncode != 0:
            log(f"  {label}: failed: {result.stderr.strip()}")
            return {"failed": result.stderr.strip()}
        with open(report) as f:
            r = json.load(f)
        r["process_seconds"] = time.time() - started
        r["user_cpu_seconds"] = user_cpu
        r.pop("rounds", None)
        return r


class Graph:
    def __init__(self, name, path, info, source):
        self.name, self.path, self.info, self.source = name, path, info, source
        self.edges = None  # the edge list it was prepared from


# Paper Table 3: the job types of each workload (sources s1, s2).
def workload(w, s1, s2):
    pr, wcc = "pagerank-delta:tolerance=0.01", "wcc"
    bfs = lambda s: f"bfs:source={s}"
    sssp = lambda s: f"sssp:source={s}"
    return {1: [pr, wcc, sssp(s1), bfs(s1)], 2: [pr, wcc, sssp(s1), sssp(s2)], 3: [pr, wcc, bfs(s1), bfs(s2)],
            4: [sssp(s1), sssp(s2), sssp(s1 + 1), sssp(s2 + 1)], 5: [bfs(s1), bfs(s2), bfs(s1 + 1), bfs(s2 + 1)],
            6: [sssp(s1), sssp(s2), sssp(s1 + 1), bfs(s2)], 7: [sssp(s1), sssp(s2), bfs(s1), bfs(s2)],
            8: [sssp(s1), bfs(s2), bfs(s1), bfs(s2 + 1)]}[w]


def w1(source):
    return workload(1, source, source)


class Context:
    """What every experiment shares: the runner, the graphs, the disk, and the run's setting."""

    def __init__(self, bench, args, commit):
        self.bench, self.args, self.commit = bench, args, commit
        self.threads = args.threads or os.cpu_count()
        self.repeats = args.repeats
        self._rmats = {}
        self._road = None
        self._graphs = {}
        self.disk = None

    def setting(self, graph, budget, chunk):
        return (f"{graph.name} ({graph.info['vertices']:,} vertices, {graph.info['edges']:,} edges, "
                f"{fmt_bytes(graph.info['edge_bytes'])}); graph-data budget {budget}; chunk {chunk}; "
                f"{self.threads} threads; commit {self.commit}")

    def rmat(self, scale=None):
        """The weighted R-MAT graph at --scale, or at another scale (prepared once each)."""
        scale = scale or self.args.scale
        if scale not in self._rmats:
            edges = self.bench.rmat_edges(scale)
            path = os.path.join(self.bench.work, f"rmat{scale}-ef16-w")
            self.bench.prep(edges, path)
            info = self.bench.graph_info(path)
            self._rmats[scale] = Graph(f"R-MAT {scale}", path, info, info["hub"])
            self._rmats[scale].edges = edges
        return self._rmats[scale]

    def road(self):
        """road-FLA in the full run; a generated road grid in --quick."""
        if not self._road:
            self._road = self.dataset("road-FLA-u.el.gz", True) if not self.args.quick else self.generated_road()
        return self._road

    def generated_road(self):
        side = QUICK_ROAD_SIDE
        return self.ordered(f"road grid {side}x{side}", f"road{side}", lambda: self.bench.road_edges(side))

    def dataset(self, file_name, symmetrize, order="natural", root=None):
        name = file_name.split(".")[0]
        return self.ordered(name, name, lambda: self.bench.dataset_edges(file_name, symmetrize), order, root)

    def ordered(self, name, stem, edges, order="natural", root=None):
        """The graph prepared from edges() in one vertex order, in <work>/<stem>[-<order><root>]."""
        key = (stem, order, root)
        if key not in self._graphs:
            suffix = "" if order == "natural" else f"-{order}" + ("" if root is None else f"{root}")
            path = os.path.join(self.bench.work, stem + suffix)
            edge_list = edges()
            cost = self.bench.prep(edge_list, path, order, root)
            graph = Graph(name, path, self.bench.graph_info(path), 0)
            graph.order_cost = cost
            graph.edges = edge_list
            self._graphs[key] = graph
        return self._graphs[key]

    def batch(self, graph, jobs, sharing, budget, label, extra=(), job_file=None, repeats=None, threads=None):
        """Runs a batch `repeats` times and keeps the run of median wall time (bytes vary only where
        asynchronous passes meet thread timing). threads: its --threads instead of the bench's."""
        runs = []
        for _ in range(max(repeats or 0, self.repeats)):
            r = self.bench.run(graph.path, jobs, sharing, budget, f"{graph.name} {label}", extra, job_file, threads)
            if "failed" in r:
                raise SystemExit(f"bench: {graph.name} {label} ({sharing} {' '.join(map(str, extra))}) failed: "
                                 f"{r['failed']}")
            runs.append(r)
        return median_run(runs)


def alternated(ctx, batches, repeats, measure=lambda r: r["wall_seconds"]):
    """Runs each batch (path, jobs, sharing, budget, label, extra) once per repetition, all in turn
    within each, so that the machine's drift falls on every one alike. Returns each batch's times
    (`measure` of its report, by default its wall time; a list per batch, in order) and its last
    report."""
    times, last = [[] for _ in batches], [None] * len(batches)
    for _ in range(repeats):
        for i, (path, jobs, sharing, budget, label, extra) in enumerate(batches):
            r = ctx.bench.run(path, jobs, sharing, budget, label, extra)
            if "failed" in r:
                raise SystemExit(f"bench: {label} ({sharing}) failed: {r['failed']}")
            times[i].append(measure(r))
            last[i] = r
    return times, last


def key_values(text):
    """The `key: value` lines a command prints (disk-bandwidth, store-stat), as a dict."""
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def median_run(runs):
    """The run of median wall time, with every run's time beside it."""
    runs = sorted(runs, key=lambda r: r["wall_seconds"])
    return dict(runs[len(runs) // 2], all_wall_seconds=[r["wall_seconds"] for r in runs])


def quarter(graph):
    return graph.info["edge_bytes"] // 4


def min_bytes(graph, chunk_run):
    """Each active edge read once per round: the active edges chunk mode processed (it loads every
    chunk holding one, and counts the active edges of cached chunks too)."""
    return chunk_run["active_edges_loaded"] * graph.info["record"]


# --- experiments ---------------------------------------------------------------------------------

def exp_limit(ctx):
    g = ctx.rmat()
    budget = g.info["edge_bytes"] // 8
    jobs = [f"bfs:source={g.source}", f"sssp:source={g.source}", "wcc", "pagerank:iterations=10",
            "pagerank-delta:tolerance=0.01"]
    rows, raw = [], []
    for job in jobs:
        r = ctx.batch(g, [job], "independent", budget, job)
        bandwidth = r["bytes_read"] / r["wall_seconds"] if r["wall_seconds"] > 0 else 0
        raw.append({"job": job, "report": r})
        rows.append([job, r["jobs"][0]["iterations"], f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]),
                     f"{bandwidth / 1e9:.2f}", f"{bandwidth / ctx.disk:.2f}", f"{r['io_wait_seconds']:.2f}",
                     f"{r['active_edge_ratio']:.3f}", fmt_bytes(r["peak_rss_bytes"])])
    md = (f"Disk, measured in this run on a scratch file with the engine's io_uring reader: {ctx.disk / 1e9:.2f} GB/s "
          f"sequential O_DIRECT reads (1 MiB requests), {ctx.bench.random_reads_per_second:.0f} random 4 KiB reads "
          f"per second.\n\nEach job alone (stock mode):\n\n" +
          table(["job", "rounds", "seconds", "bytes read", "GB/s", "of disk", "I/O wait s", "active-edge ratio",
                 "peak RSS"], rows))
    return {"setting": ctx.setting(g, "1/8 of the edge bytes", "-"), "disk_bytes_per_second": ctx.disk,
            "disk_random_reads_per_second": ctx.bench.random_reads_per_second, "jobs": raw}, md, None


def exp_modes(ctx):
    graphs = [ctx.rmat(), ctx.road()] + ([] if ctx.args.quick else [ctx.dataset("soc-slashdot0902-d.el.gz", False)])
    rows, raw, plot_rows = [], {}, []
    for g in graphs:
        # The headline comparison: --quick's runs take tenths of a second, too noisy to compare once.
        runs = {mode: ctx.batch(g, w1(g.source), mode, quarter(g), mode, repeats=3 if ctx.args.quick else None)
                for mode in ["independent", "partition", "chunk"]}
        least = min_bytes(g, runs["chunk"])
        limit = least / ctx.disk
        raw[g.name] = {"graph": g.info, "jobs": w1(g.source), "budget": quarter(g), "min_bytes": least,
                       "limit_seconds": limit, "modes": runs}
        plot_rows.append({"graph": g.name, "min_bytes": least, "limit_seconds": limit,
                          "modes": {m: {"seconds": r["wall_seconds"], "bytes": r["bytes_read"],
                                        "active_edge_ratio": r["active_edge_ratio"]} for m, r in runs.items()}})
        for mode, r in runs.items():
            rows.append([g.name, mode, f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]),
                         f"{r['bytes_read'] / runs['partition']['bytes_read']:.3f}",
                         f"{r['wall_seconds'] / runs['partition']['wall_seconds']:.3f}",
                         f"{r['active_edge_ratio']:.3f}", f"{r['bytes_read'] / max(least, 1):.1f}",
                         f"{r['wall_seconds'] / max(limit, 1e-9):.1f}", fmt_bytes(r["bytes_from_cache"]),
                         r["rounds_total"], fmt_bytes(r["peak_rss_bytes"])])
    md = table(["graph", "mode", "seconds", "bytes read", "bytes / partition", "time / partition", "active-edge ratio",
                "bytes / minimum", "time / limit", "from cache", "rounds", "peak RSS"], rows)
    md += ("\n\nminimum = every active edge read once per round; limit = minimum / the disk's sequential bandwidth "
           "(both measured in this run).")
    setting = (f"each graph's budget 1/4 of its edge bytes; chunk size 64 KiB capped by the budget; "
               f"{ctx.threads} threads; commit {ctx.commit}")
    return raw, md, lambda path: plots.modes(plot_rows, setting, path)


def exp_workloads(ctx):
    g = ctx.rmat()
    s1, s2 = g.source, (g.source * 7 + 1) % g.info["vertices"]
    rows, raw, plot_rows = [], {}, []
    for w in range(1, 9):
        jobs = workload(w, s1, s2)
        runs = {mode: ctx.batch(g, jobs, mode, quarter(g), f"W{w} {mode}") for mode in ["partition", "chunk"]}
        raw[f"W{w}"] = {"jobs": jobs, "modes": runs}
        p, c = runs["partition"], runs["chunk"]
        plot_rows.append({"workload": f"W{w}", "partition": {"seconds": p["wall_seconds"], "bytes": p["bytes_read"]},
                          "chunk": {"seconds": c["wall_seconds"], "bytes": c["bytes_read"]}})
        rows.append([f"W{w}", ", ".join(j.split(":")[0] for j in jobs), f"{p['wall_seconds']:.2f}",
                     f"{c['wall_seconds']:.2f}", f"{c['wall_seconds'] / p['wall_seconds']:.3f}",
                     fmt_bytes(p["bytes_read"]), fmt_bytes(c["bytes_read"]), f"{c['bytes_read'] / p['bytes_read']:.3f}"])
    md = table(["workload", "jobs", "partition s", "chunk s", "time chunk / partition", "partition bytes",
                "chunk bytes", "bytes chunk / partition"], rows)
    setting = ctx.setting(g, "1/4 of the edge bytes", "64 KiB capped by the budget")
    return raw, md, lambda path: plots.workloads(plot_rows, setting, path)


def exp_cache(ctx):
    rows, raw, series = [], {}, []
    for g in [ctx.road(), ctx.rmat()]:
        points = []
        for ratio in [0.0, 0.1, 0.25, 0.5]:
            r = ctx.batch(g, w1(g.source), "chunk", quarter(g), f"cache {ratio}", ("--cache-ratio", ratio))
            raw[f"{g.name} {ratio}"] = r
            points.append({"ratio": ratio, "seconds": r["wall_seconds"], "bytes": r["bytes_read"]})
            rows.append([g.name, "off" if ratio == 0 else f"{ratio:.0%}", f"{r['wall_seconds']:.2f}",
                         fmt_bytes(r["bytes_read"]), fmt_bytes(r["bytes_from_cache"]), r["cache_hits"],
                         f"{r['cache_hits'] / max(1, r['cache_hits'] + r['cache_misses']):.3f}"])
        series.append({"series": g.name, "points": points})
    md = table(["graph", "cache (of the graph budget)", "seconds", "bytes read", "from cache", "hits", "hit rate"], rows)
    setting = (f"W1, chunk mode, budget 1/4 of each graph's edge bytes, chunk 64 KiB capped; "
               f"{ctx.threads} threads; commit {ctx.commit}")
    return raw, md, lambda path: plots.sweep(series, "ratio", "chunk cache (fraction of the graph-data budget)", setting,
                                             path, "The chunk cache, off and at 10-50% of the budget (paper Figs. 8, 20)")


def exp_chunk_size(ctx):
    rows, raw, series = [], {}, []
    default = None
    for g in [ctx.rmat(), ctx.road()]:
        base = ctx.batch(g, w1(g.source), "chunk", quarter(g), "chunk default")
        if g is ctx.rmat():
            default = base["chunk_bytes"]
        points = {base["chunk_bytes"]: base}
        for size in [64 << 10, 128 << 10, 256 << 10, 1 << 20, 4 << 20]:
            if size not in points and size * 8 <= quarter(g):
                points[size] = ctx.batch(g, w1(g.source), "chunk", quarter(g), f"chunk {size >> 10}K",
                                         ("--chunk-size", size))
        formula = ctx.batch(g, w1(g.source), "chunk", quarter(g), "chunk formula", ("--chunk-size", "formula"))
        points.setdefault(formula["chunk_bytes"], formula)
        raw[g.name] = {"default": base["chunk_bytes"], "basis": base["chunk_size_basis"],
                       "runs": {str(k): v for k, v in points.items()}}
        series.append({"series": g.name + (" (dotted: default)" if g is ctx.rmat() else ""),
                       "points": [{"size": k, "seconds": v["wall_seconds"], "bytes": v["bytes_read"]}
                                  for k, v in sorted(points.items())]})
        for size, r in sorted(points.items()):
            rows.append([g.name, fmt_bytes(size) + (" (default)" if size == base["chunk_bytes"] else ""),
                         f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]), r["chunks"],
                         f"{r['active_edge_ratio']:.3f}"])
    md = table(["graph", "chunk size", "seconds", "bytes read", "chunks", "active-edge ratio"], rows)
    md += ("\n\ndefault = the size prep recorded for the graph (measured from the device for an edge file of 64 MiB or "
           "more, else 64 KiB), capped at a quarter of the partition buffers; `--chunk-size formula` (Formula (1) "
           "from this machine's LLC size as sysfs reports it, capped the same way) is among the sizes run. "
           "How each default was chosen: " +
           "; ".join(f"{name}: {fmt_bytes(r['default'])}, {r['basis']}" for name, r in raw.items()) + ".")
    setting = f"W1, chunk mode, budget 1/4 of each graph's edge bytes; {ctx.threads} threads; commit {ctx.commit}"
    return raw, md, lambda path: plots.sweep(series, "size", "chunk size (bytes)", setting, path,
                                             "Chunk size from 64 KiB to Formula (1) (paper Fig. 18)", log_x=True,
                                             marker=default, marker_label=f"R-MAT default {fmt_bytes(default)}")


def giant_sources(ctx, g, count, seed=1):
    """`count` distinct vertices of g's largest weakly connected component, drawn with a seeded generator (original
    ids, as --job takes them)."""
    import random
    labels_dir = os.path.join(ctx.bench.work, os.path.basename(g.path) + "-wcc")
    labels_file = os.path.join(labels_dir, "wcc.bin")
    if not os.path.exists(labels_file):
        shutil.rmtree(labels_dir, ignore_errors=True)
        ctx.bench.cli("run", g.path, "--job", "wcc:name=wcc", "--out", labels_dir, "--out-format", "bin")
    with open(labels_file, "rb") as f:
        labels = struct.unpack(f"<{g.info['vertices']}I", f.read())
    sizes = {}
    for label in labels:
        sizes[label] = sizes.get(label, 0) + 1
    giant = max(sizes, key=sizes.get)
    members = [v for v, label in enumerate(labels) if label == giant]
    return random.Random(seed).sample(members, min(count, len(members)))


def stored_bytes(g):
    """The bytes a full pass of the GridGraph engine reads: its edge file."""
    return os.path.getsize(os.path.join(g.path, "grid.row"))


def mixed_64(sources):
    """Issue 63's mixed batch: 32 BFS, 16 SSSP, 8 personalised PageRank, 4 WCC, 4 PageRank x10."""
    jobs = [f"bfs:source={s}" for s in sources[:32]] + [f"sssp:source={s}" for s in sources[32:48]]
    jobs += [f"ppr:source={s}" for s in sources[48:56]]
    return jobs + ["wcc"] * 4 + ["pagerank:iterations=10"] * 4


def exp_many_jobs(ctx):
    """Issue 63: many jobs for the price of a few. BFS batches from sources in the giant component against one of
    those BFS alone (the median of five), grouped (the default) and, for 64, with --grouping off (each job on its
    own, as before grouping); on a symmetrised R-MAT 20 and road-FLA (--quick: R-MAT 14 and a road grid) at 1/4 and
    1/8 of the stored graph, each setting alternated within each repetition (at least three; road-FLA two). Then a
    mixed batch of 64 grouped and ungrouped (alternated) and the sum of its jobs run alone, on the R-MAT graph at 1/4;
    and 1,000 jobs from a job file on soc-slashdot (--quick: R-MAT 14): time, runnables and peak RSS against --mem."""
    quick = ctx.args.quick
    rmat_scale = 14 if quick else 20
    rmat = ctx.ordered(f"R-MAT {rmat_scale} symmetrised", f"rmat{rmat_scale}-sym",
                       lambda: ctx.bench.symmetric_rmat_edges(rmat_scale))
    counts = (8, 32) if quick else (64, 256)
    alone = 2 if quick else 5
    raw, rows, series = {"bfs": [], "mixed": {}, "thousand": {}}, [], []
    for g, repeats in [(rmat, 1 if quick else max(3, ctx.repeats)), (ctx.road(), 1 if quick else max(2, ctx.repeats))]:
        sources = giant_sources(ctx, g, counts[-1] + alone)
        for fraction in (4, 8):
            budget = max(stored_bytes(g) // fraction, 256 << 10)
            singles = [(f"1 BFS from {s}", [f"bfs:source={s}"], ()) for s in sources[counts[-1]:]]
            batches = singles + [(f"{n} BFS", [f"bfs:source={s}" for s in sources[:n]], ()) for n in counts]
            if fraction == 4:
                batches.append((f"{counts[0]} BFS, grouping off", [f"bfs:source={s}" for s in sources[:counts[0]]],
                                ("--grouping", "off")))
            times, last = alternated(ctx, [(g.path, jobs, "chunk", budget, f"{g.name} 1/{fraction} {label}", extra)
                                           for label, jobs, extra in batches], repeats)
            median = [statistics.median(t) for t in times]
            one = statistics.median(median[:alone])
            points, off_points = [{"jobs": 1, "ratio": 1.0}], [{"jobs": 1, "ratio": 1.0}]
            for i, (label, jobs, extra) in enumerate(batches):
                r = last[i]
                cores = r["cpu_seconds"] / r["wall_seconds"] if r["wall_seconds"] > 0 else 0
                ratio = median[i] / one
                if i >= alone:
                    (off_points if extra else points).append({"jobs": len(jobs), "ratio": ratio})
                    rows.append([g.name, f"1/{fraction}", label, f"{median[i]:.3f} ({min(times[i]):.3f}-{max(times[i]):.3f})",
                                 f"{ratio:.2f}", fmt_bytes(r["bytes_read"]), f"{r['rounds_total']}", f"{cores:.2f}",
                                 f"{r['io_wait_seconds']:.2f}"])
                raw["bfs"].append({"graph": g.name, "budget": budget, "label": label, "jobs": len(jobs),
                                   "seconds": times[i], "ratio_to_one": ratio, "cores": cores,
                                   "report": {k: v for k, v in r.items() if k not in ("jobs",)}})
            rows.append([g.name, f"1/{fraction}", f"one BFS alone (median of {alone})", f"{one:.3f}", "1", "", "", "", ""])
            series.append({"series": f"{g.name}, 1/{fraction}", "points": points})
            if len(off_points) > 1:
                series.append({"series": f"{g.name}, 1/{fraction}, grouping off", "points": off_points})
    resident_rows = resident_groups(ctx, rmat, raw)
    # The mixed batch: grouped and not, alternated; then each of its jobs alone.
    sources = giant_sources(ctx, rmat, 56, seed=2)
    mixed = mixed_64(sources)
    budget = stored_bytes(rmat) // 4
    repeats = 1 if quick else max(3, ctx.repeats)
    times, last = alternated(ctx, [(rmat.path, mixed, "chunk", budget, f"{rmat.name} mixed 64", ()),
                                   (rmat.path, mixed, "chunk", budget, f"{rmat.name} mixed 64, grouping off",
                                    ("--grouping", "off"))], repeats)
    alone_seconds = 0.0
    for job in sorted(set(mixed), key=mixed.index):
        r = ctx.bench.run(rmat.path, [job], "chunk", budget, f"{rmat.name} {job} alone")
        if "failed" in r:
            raise SystemExit(f"bench: {job} alone failed: {r['failed']}")
        alone_seconds += r["wall_seconds"] * mixed.count(job)
    grouped, off = statistics.median(times[0]), statistics.median(times[1])
    mixed_rows = [["grouped (default)", f"{grouped:.2f} ({min(times[0]):.2f}-{max(times[0]):.2f})",
                   f"{last[0]['cpu_seconds'] / last[0]['wall_seconds']:.2f}", "1"],
                  ["--grouping off", f"{off:.2f} ({min(times[1]):.2f}-{max(times[1]):.2f})",
                   f"{last[1]['cpu_seconds'] / last[1]['wall_seconds']:.2f}", f"{off / grouped:.2f}"],
                  ["sum of its jobs alone", f"{alone_seconds:.2f}", "", f"{alone_seconds / grouped:.2f}"]]
    raw["mixed"] = {"grouped": times[0], "off": times[1], "alone_sum": alone_seconds, "grouped_report": last[0],
                    "off_report": {k: v for k, v in last[1].items() if k != "jobs"}}
    # 1,000 jobs from a job file.
    thousand = ctx.rmat(14) if quick else ctx.dataset("soc-slashdot0902-d.el.gz", False)
    job_file = os.path.join(ctx.bench.work, "thousand.toml")
    with open(job_file, "w") as f:
        for k, s in enumerate(giant_sources(ctx, thousand, 1000, seed=3)):
            kind = k % 20
            algo = "bfs" if kind < 12 else "sssp" if kind < 16 else "ppr" if kind < 18 else "wcc" if kind < 19 else "pagerank"
            f.write(f'[[job]]\nalgo = "{algo}"\n' + (f"source = {s}\n" if kind < 18 else "") +
                    ("tolerance = 1e-4\n" if algo == "ppr" else "") + ("iterations = 10\n" if algo == "pagerank" else ""))
    r = ctx.bench.run(thousand.path, [], "chunk", stored_bytes(thousand) // 4, f"{thousand.name} 1,000 jobs",
                      job_file=job_file)
    if "failed" in r:
        raise SystemExit(f"bench: 1,000 jobs failed: {r['failed']}")
    raw["thousand"] = r
    groups = [x for x in r["runnables"] if x["method"]]
    thousand_line = (f"1,000 jobs on {thousand.name} (600 BFS, 200 SSSP, 100 PPR, 50 WCC, 50 PageRank x10; "
                     f"budget a quarter of the stored graph): {r['wall_seconds']:.2f} s in {len(r['runnables'])} "
                     f"runnables ({len(groups)} groups or identical sets), vertex state {fmt_bytes(r['vertex_state_bytes'])}, "
                     f"peak RSS {fmt_bytes(r['peak_rss_bytes'])} against --mem {fmt_bytes(r['mem_bytes'])}.")
    md = ("Seconds: median (range) of the repetitions, every batch of a graph and budget alternated within each; "
          "ratio: over one BFS alone (the median of five sources' medians); cores: the batch's processor time over its "
          "wall time (`cpu_seconds` / `wall_seconds`); io wait: seconds the rounds waited for reads.\n\n" +
          table(["graph", "budget", "batch", "seconds", "ratio", "bytes read", "rounds", "cores", "io wait"], rows) +
          "\n\nThe same graphs resident (budget 16 times the stored graph): groups through light rounds (the default: "
          "bit-parallel rounds over the graph in memory, then each lane run to its end by a queue of its own), against "
          "`--light-rounds off` (every round through the chunks) and `--grouping off` (each job alone, light rounds "
          "on), alternated:\n\n" +
          table(["graph", "batch", "seconds", "/ one alone", "/ light rounds off", "/ grouping off", "rounds", "cores",
                 "light rounds"], resident_rows) +
          f"\n\nMixed batch of 64 on {rmat.name} at 1/4 (32 BFS, 16 SSSP, 8 PPR, 4 WCC, 4 PageRank x10, sources in the "
          f"giant component):\n\n" + table(["batch", "seconds", "cores", "/ grouped"], mixed_rows) +
          f"\n\nGrouped / ungrouped {grouped / off:.3f} (issue 63's target <= 0.25); grouped / sum alone "
          f"{grouped / alone_seconds:.3f} (target <= 0.15).\n\n" + thousand_line)
    setting = (f"{rmat.name} and {ctx.road().name}, chunk mode, chunk size the graph's default; {ctx.threads} threads; "
               f"commit {ctx.commit}")
    mixed_plot = {"grouped": grouped, "grouping off": off, "sum alone": alone_seconds}
    return raw, md, lambda path: plots.many_jobs(series, mixed_plot, setting, path)


def resident_groups(ctx, rmat, raw):
    """Many traversals on a graph the budget holds: 64 BFS and 16 SSSP from giant-component sources on each graph,
    grouped by default (light rounds), with --light-rounds off and with --grouping off, beside one of them alone,
    alternated; the table's rows."""
    quick = ctx.args.quick
    counts = {"BFS": 8 if quick else 64, "SSSP": 4 if quick else 16}
    rows = []
    raw["resident"] = []
    for g, repeats in [(rmat, 1 if quick else max(3, ctx.repeats)), (ctx.road(), 1 if quick else max(2, ctx.repeats))]:
        budget = max(16 * stored_bytes(g), 64 << 20)
        sources = giant_sources(ctx, g, counts["BFS"], seed=4)
        for algo, n in counts.items():
            jobs = [f"{algo.lower()}:source={s}" for s in sources[:n]]
            batches = [(g.path, jobs[:1], "chunk", budget, f"{g.name} resident one {algo}", ()),
                       (g.path, jobs, "chunk", budget, f"{g.name} resident {n} {algo}", ()),
                       (g.path, jobs, "chunk", budget, f"{g.name} resident {n} {algo}, light rounds off",
                        ("--light-rounds", "off")),
                       (g.path, jobs, "chunk", budget, f"{g.name} resident {n} {algo}, grouping off",
                        ("--grouping", "off"))]
            times, last = alternated(ctx, batches, repeats)
            m = [statistics.median(t) for t in times]
            labels = [f"one {algo} alone", f"{n} {algo} (default)", f"{n} {algo}, --light-rounds off",
                      f"{n} {algo}, --grouping off"]
            for i, label in enumerate(labels):
                r = last[i]
                cores = r["cpu_seconds"] / r["wall_seconds"] if r["wall_seconds"] > 0 else 0
                rows.append([g.name, label, f"{m[i]:.3f} ({min(times[i]):.3f}-{max(times[i]):.3f})", f"{m[i] / m[0]:.2f}",
                             f"**{m[1] / m[2]:.2f}**" if i == 1 else "", f"**{m[1] / m[3]:.2f}**" if i == 1 else "",
                             str(r["rounds_total"]), f"{cores:.2f}",
                             f"{r['light_rounds']} (round {r['adjacency_round']}, {r['adjacency_seconds']:.3f} s)"
                             if r["light_rounds"] == "built" else r["light_rounds"]])
            raw["resident"].append({"graph": g.name, "algo": algo, "jobs": n, "budget": budget, "labels": labels,
                                    "seconds": times,
                                    "reports": [{k: v for k, v in x.items() if k != "jobs"} for x in last]})
    return rows


def textbook(ctx, g, source, repeats):
    """The bench's in-memory yardstick (tools/bench/textbook.cc) on g's edge list: a serial top-down BFS and a
    serial Dijkstra from `source`, a serial union-find WCC and PageRank x10 by a pull loop over a CSR, `repeats`
    times after one load; the medians."""
    out = subprocess.run([ctx.bench.textbook, g.edges, "--bfs", str(source), "--sssp", str(source), "--wcc", "1",
                          "--pagerank", "10", "--reps", str(repeats)],
                         capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS=str(ctx.threads)))
    if out.returncode != 0:
        raise SystemExit(f"bench: textbook on {g.name} failed: {out.stderr.strip()}")
    r = json.loads(out.stdout)
    r["bfs"] = statistics.median(r["bfs_seconds"])
    r["sssp"] = statistics.median(r["sssp_seconds"])
    r["wcc"] = statistics.median(r["wcc_seconds"])
    r["pagerank"] = statistics.median(r["pagerank_seconds"])
    return r


def exp_inmemory(ctx):
    """Issue 68: jobs on a graph the budget holds. Each job alone (BFS from a giant-component source, SSSP, WCC,
    PageRank x10) and W1, chunk mode, the graph-data budget 16 times the stored graph (the cache, a quarter of it,
    holds the graph decoded), with the cache's default form (auto: decoded) and with --cache-form packed, alternated;
    BFS at a quarter of the stored graph beside them; against the bench's textbook kernels over a CSR in memory
    (serial top-down BFS, PageRank by a pull loop on every thread), on a symmetrised R-MAT 20, soc-slashdot and
    road-FLA (--quick: R-MAT 14 and a road grid). Then BFS and PageRank x10 on a dgap store of R-MAT 20 read in
    place (`run STORE`) against the same edges prepared, each engine against itself, budget above the graph."""
    quick = ctx.args.quick
    scale = 14 if quick else 20
    rmat = ctx.ordered(f"R-MAT {scale} symmetrised", f"rmat{scale}-sym", lambda: ctx.bench.symmetric_rmat_edges(scale))
    graphs = [rmat] + ([] if quick else [ctx.dataset("soc-slashdot0902-d.el.gz", False)]) + [ctx.road()]
    repeats = 1 if quick else max(3, ctx.repeats)
    rows, raw, series = [], {"graphs": {}, "store": {}}, []
    for g in graphs:
        source = giant_sources(ctx, g, 1)[0]
        budget = max(16 * stored_bytes(g), 64 << 20)
        cases = [("BFS", [f"bfs:source={source}"]), ("SSSP", [f"sssp:source={source}"]), ("WCC", ["wcc"]),
                 ("PageRank x10", ["pagerank:iterations=10"]), ("W1", w1(source))]
        batches = []
        for label, jobs in cases:
            batches.append((g.path, jobs, "chunk", budget, f"{g.name} {label}", ()))
            batches.append((g.path, jobs, "chunk", budget, f"{g.name} {label} packed", ("--cache-form", "packed")))
        batches.append((g.path, cases[0][1], "chunk", stored_bytes(g) // 4, f"{g.name} BFS at 1/4", ()))
        # Light rounds off (every round through the chunks), beside the default, for BFS and SSSP.
        light_cases = [k for k, (label, _) in enumerate(cases) if label in ("BFS", "SSSP", "W1")]
        for k in light_cases:
            batches.append((g.path, cases[k][1], "chunk", budget, f"{g.name} {cases[k][0]} light rounds off",
                            ("--light-rounds", "off")))
        times, last = alternated(ctx, batches, repeats)
        book = textbook(ctx, g, source, max(3, repeats))
        median = [statistics.median(t) for t in times]
        yardstick = {"BFS": book["bfs"], "SSSP": book["sssp"], "WCC": book["wcc"], "PageRank x10": book["pagerank"]}
        points = {}
        for k, (label, jobs) in enumerate(cases):
            auto, packed = median[2 * k], median[2 * k + 1]
            r = last[2 * k]
            book_seconds = yardstick.get(label)
            rows.append([g.name, label, f"{auto:.3f} ({min(times[2 * k]):.3f}-{max(times[2 * k]):.3f})", r["cache_form"],
                         f"{packed:.3f}", f"{auto / packed:.2f}",
                         f"{book_seconds:.3f}" if book_seconds else "", f"{auto / book_seconds:.2f}" if book_seconds else "",
                         str(r["rounds_total"]), f"{auto / max(1, r['rounds_total']) * 1e3:.2f}"])
            points[label] = {"resident": auto, "packed": packed, "textbook": book_seconds}
        at_quarter = 2 * len(cases)
        out_of_core = median[at_quarter]
        rows.append([g.name, "BFS at 1/4 of the graph", f"{out_of_core:.3f}", last[at_quarter]["cache_form"], "", "", "",
                     f"{out_of_core / median[0]:.2f} of resident", str(last[at_quarter]["rounds_total"]), ""])
        for i, k in enumerate(light_cases):
            off = at_quarter + 1 + i
            on_report = last[2 * k]
            rows.append([g.name, f"{cases[k][0]}, --light-rounds off", f"{median[off]:.3f}", last[off]["cache_form"], "", "",
                         "", f"on / off {median[2 * k] / median[off]:.2f} (on: {on_report['light_rounds']}, built in "
                         f"{on_report['adjacency_seconds']:.3f} s)", str(last[off]["rounds_total"]), ""])
        # The BFS once the graph is resident, timed alone as the textbook's is (after its load): it
        # joins the batch after a PageRank x1 has loaded the graph (arrive_after = 1); by default
        # (direction-optimising rounds on a symmetric graph, then passes) and in passes from the
        # start (--async on, what a BFS did before).
        warm = os.path.join(ctx.bench.work, f"{os.path.basename(g.path)}-warm-bfs.toml")
        with open(warm, "w") as f:
            f.write(f'[[job]]\nalgo = "pagerank"\niterations = 1\n\n[[job]]\nalgo = "bfs"\nsource = {source}\n'
                    f'arrive_after = 1\n')
        warm_times, warm_last = alternated(
            ctx, [(g.path, [], "chunk", budget, f"{g.name} BFS once resident", ("--jobs", warm)),
                  (g.path, [], "chunk", budget, f"{g.name} BFS once resident, passes", ("--jobs", warm, "--async", "on")),
                  (g.path, [], "chunk", budget, f"{g.name} BFS once resident, light rounds off",
                   ("--jobs", warm, "--light-rounds", "off"))],
            max(3, repeats), measure=lambda r: r["jobs"][1]["seconds"])
        warm_default, warm_passes, warm_heavy = (statistics.median(t) for t in warm_times)
        # PageRank x10 timed the same way: joining after a PageRank x1 read the graph, its own seconds
        # against the textbook's pull loop over a CSR already in memory.
        warm_pr = os.path.join(ctx.bench.work, f"{os.path.basename(g.path)}-warm-pagerank.toml")
        with open(warm_pr, "w") as f:
            f.write('[[job]]\nalgo = "pagerank"\niterations = 1\n\n[[job]]\nalgo = "pagerank"\niterations = 10\n'
                    'arrive_after = 1\n')
        pr_times, pr_last = alternated(ctx, [(g.path, [], "chunk", budget, f"{g.name} PageRank x10 once resident",
                                              ("--jobs", warm_pr))], max(3, repeats), measure=lambda r: r["jobs"][1]["seconds"])
        pr_warm = statistics.median(pr_times[0])
        bfs_runnable = warm_last[0]["runnables"][1]
        points["BFS once resident"] = {"resident": warm_default, "packed": None, "textbook": book["bfs"]}
        rows.append([g.name, "BFS once resident", f"{warm_default:.3f} ({min(warm_times[0]):.3f}-{max(warm_times[0]):.3f})",
                     warm_last[0]["cache_form"], "", "", f"{book['bfs']:.3f}", f"{warm_default / book['bfs']:.2f}",
                     str(bfs_runnable["iterations"]), f"{warm_default / max(1, bfs_runnable['iterations']) * 1e3:.2f}"])
        rows.append([g.name, "PageRank x10 once resident", f"{pr_warm:.3f} ({min(pr_times[0]):.3f}-{max(pr_times[0]):.3f})",
                     pr_last[0]["cache_form"], "", "", f"{book['pagerank']:.3f}", f"{pr_warm / book['pagerank']:.2f}",
                     str(pr_last[0]["runnables"][1]["iterations"]), f"{pr_warm / 10 * 1e3:.2f}"])
        rows.append([g.name, "BFS once resident, --async on (passes throughout)",
                     f"{warm_passes:.3f} ({min(warm_times[1]):.3f}-{max(warm_times[1]):.3f})", warm_last[1]["cache_form"],
                     "", "", f"{book['bfs']:.3f}", f"{warm_passes / book['bfs']:.2f}",
                     str(warm_last[1]["runnables"][1]["iterations"]), f"default / this {warm_default / warm_passes:.2f}"])
        rows.append([g.name, "BFS once resident, --light-rounds off (every round through the chunks)",
                     f"{warm_heavy:.3f} ({min(warm_times[2]):.3f}-{max(warm_times[2]):.3f})", warm_last[2]["cache_form"],
                     "", "", f"{book['bfs']:.3f}", f"{warm_heavy / book['bfs']:.2f}",
                     str(warm_last[2]["runnables"][1]["iterations"]), f"default / this {warm_default / warm_heavy:.2f}"])
        raw["graphs"][g.name] = {"budget": budget, "source": source, "seconds": times, "textbook": book,
                                 "once_resident": {"default": warm_times[0], "passes": warm_times[1], "light_rounds_off": warm_times[2],
                                                   "bfs": bfs_runnable, "pagerank": pr_times[0],
                                                   "pagerank_runnable": pr_last[0]["runnables"][1]},
                                 "cases": [c[0] for c in cases],
                                 "reports": [{k: v for k, v in x.items() if k != "jobs"} for x in last]}
        series.append({"graph": g.name, "points": points})
    # A dgap store read in place against the same edges prepared, budget above the graph, in each engine.
    plain = ctx.bench.rmat_plain_edges(scale)
    prepared = ctx.ordered(f"R-MAT {scale}", f"rmat{scale}-ef16", lambda: plain)
    store = os.path.join(ctx.bench.work, f"rmat{scale}-inmemory.dgap")
    if not os.path.exists(store):
        ctx.bench.cli("ingest", store, "--input", plain, "--store-mode", "dgap", "--threads", ctx.threads)
    store_rows = []
    budget = max(16 * stored_bytes(prepared), 64 << 20)
    for label, jobs in [("BFS", [f"bfs:source={prepared.info['hub']}"]), ("PageRank x10", ["pagerank:iterations=10"])]:
        batches = [(store, jobs, "chunk", budget, f"dgap store {label}", ()),
                   (prepared.path, jobs, "chunk", budget, f"prepared {label}", ()),
                   (store, jobs, "chunk", budget, f"dgap store {label} xstream", ("--engine", "xstream")),
                   (prepared.path, jobs, "chunk", budget, f"prepared {label} xstream", ("--engine", "xstream"))]
        times, last = alternated(ctx, batches, repeats)
        m = [statistics.median(t) for t in times]
        store_rows.append([label, f"{m[0]:.3f}", f"{m[1]:.3f}", f"**{m[0] / m[1]:.2f}**", f"{m[2]:.3f}", f"{m[3]:.3f}",
                           f"{m[2] / m[3]:.2f}"])
        raw["store"][label] = {"seconds": times, "store_report": {k: v for k, v in last[0].items() if k != "jobs"}}
    md = ("Seconds: median (range) of the repetitions, every batch of a graph alternated within each; resident: the "
          "cache's default form (`cache`: what it held), packed: `--cache-form packed`; textbook: the bench's CSR "
          "kernels (serial top-down BFS, serial Dijkstra, serial union-find WCC; PageRank pulling over in-edges on every "
          "thread), after their load; "
          "ms/round: resident seconds over the batch's rounds. BFS once resident: the BFS's own seconds (report `jobs`), "
          "joining the batch after a PageRank x1 read the graph into the cache, timed as the textbook's is, after the "
          "load; by default and with `--async on` (passes from the start, a BFS alone before direction-optimising "
          "rounds), alternated.\n\n" +
          table(["graph", "job", "resident s", "cache", "packed s", "resident / packed", "textbook s",
                 "/ textbook", "rounds", "ms / round"], rows) +
          f"\n\nR-MAT {scale} (unweighted) in a dgap store, read in place by `run STORE`, against the same edges "
          f"prepared, each engine against itself, budget {fmt_bytes(budget)}:\n\n" +
          table(["job", "GridGraph: store s", "prepared s", "store / prepared", "X-Stream: store s", "prepared s",
                 "store / prepared"], store_rows))
    setting = f"chunk mode, budget 16x the stored graph; {ctx.threads} threads; commit {ctx.commit}"
    return raw, md, lambda path: plots.inmemory(series, setting, path)


def spark_job_cell(j):
    """A Spark job in the `spark` table: seconds (rounds, seconds a round); a grouped traversal's program is timed in
    its group's first job, the others' seconds are their results' writing."""
    if "same_as" in j:
        return f"{j['name']}: {j['same_as']}'s result"
    if "group" in j and j["group"][0] != j["name"]:
        return f"{j['name']}: in {j['group'][0]}'s program"
    cell = f"{j['name']} {j['seconds']:.1f} s ({j['iterations']}, {j['seconds'] / max(1, j['iterations']):.2f} s/round)"
    return cell + (f" for {len(j['group'])} jobs" if "group" in j else "")


def exp_spark(ctx):
    """Issue 67: the same job file on graphso and on Spark local[2] (tools/spark), on both of its back ends
    (GraphX's Pregel programs, the jar `make deps-spark` builds, and DataFrame loops): W1 on soc-slashdot and on a
    symmetrised R-MAT 20, BFS and SSSP on road-FLA (--quick: W1 on R-MAT 12 alone, GraphX alone). graphso with the budget
    above the graph (Spark holds it in memory too); Spark's report gives the session's start, the load and each job's
    seconds and rounds. The driver gets 8 GiB (PYSPARK_SUBMIT_ARGS): R-MAT 20's 33.5 M edges do not fit Spark's
    default 1 GiB. Long: road-FLA's BFS and SSSP take 1,105 Spark rounds, as one Pregel program on GraphX (about
    25 minutes); the DataFrame back end is not run there (about a second a round, each job apart)."""
    quick = ctx.args.quick
    python = os.path.join(REPO, ".venv-spark", "bin", "python")
    if not os.path.exists(python):
        raise RuntimeError("no .venv-spark: run make deps-spark")
    scale = 12 if quick else 20
    rmat = ctx.ordered(f"R-MAT {scale} symmetrised", f"rmat{scale}-sym", lambda: ctx.bench.symmetric_rmat_edges(scale))
    road = None if quick else ctx.road()
    graphs = [rmat] if quick else [ctx.dataset("soc-slashdot0902-d.el.gz", False), road, rmat]
    env = dict(os.environ, PYSPARK_SUBMIT_ARGS="--driver-memory 8g pyspark-shell", GRAPHSO_BIN=ctx.bench.graphso)
    rows, raw = [], {}
    for g in graphs:
        source = giant_sources(ctx, g, 1)[0]
        jobs = [f"bfs:source={source}", f"sssp:source={source}"] if g is road else w1(source)
        job_file = os.path.join(ctx.bench.work, f"{os.path.basename(g.path)}-spark.toml")
        with open(job_file, "w") as f:
            for job in jobs:
                algo, _, params = job.partition(":")
                f.write(f'[[job]]\nalgo = "{algo}"\n' + "".join(
                    f"{k} = {v}\n" for k, v in (kv.split("=") for kv in params.split(",") if kv)))
        exported = os.path.join(ctx.bench.work, f"{os.path.basename(g.path)}.parquet")
        if not os.path.exists(os.path.join(exported, "graphso.json")):
            ctx.bench.cli("export", g.path, "-o", exported, "--format", "parquet")
        budget = max(16 * stored_bytes(g), 64 << 20)
        ours = ctx.bench.run(g.path, [], "chunk", budget, f"{g.name} graphso", job_file=job_file)
        if "failed" in ours:
            raise RuntimeError(f"{g.name}: graphso run failed: {ours['failed']}")
        per_job = {j["name"]: (j["seconds"], j["iterations"]) for j in ours["jobs"]}
        rows.append([g.name, "graphso", "", "", f"{ours['wall_seconds']:.3f}", "1",
                     "; ".join(f"{name} {s:.3f} s ({it})" for name, (s, it) in per_job.items())])
        raw[g.name] = {"graphso": ours, "spark": {}}
        for backend in ("graphx",) if quick or g is road else ("graphx", "dataframe"):
            out, report = os.path.join(ctx.bench.work, "spark-out"), os.path.join(ctx.bench.work, "spark.json")
            log(f"  {g.name}: Spark local[2], {backend}")
            done = subprocess.run([python, os.path.join(REPO, "tools", "spark", "run.py"), exported, "--jobs", job_file,
                                   "--out", out, "--report", report, "--master", "local[2]", "--backend", backend],
                                  capture_output=True, text=True, env=env)
            if done.returncode != 0:
                tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
                log(f"  {g.name} {backend}: failed: {tail[0]}")
                rows.append([g.name, f"Spark {backend}", "", "", "failed", "", tail[0][:120]])
                continue
            with open(report) as f:
                r = json.load(f)
            raw[g.name]["spark"][backend] = r
            rows.append([g.name, f"Spark {backend}", f"{r['session_seconds']:.1f}", f"{r['load_seconds']:.1f}",
                         f"{r['jobs_seconds']:.1f}", f"{r['jobs_seconds'] / ours['wall_seconds']:.0f}",
                         "; ".join(spark_job_cell(j) for j in r["jobs"])])
        if g is road and not quick:
            # The DataFrame back end pays about a second a round; 1,105 rounds each did not finish in 22 minutes
            # (docs/spark.md): left out, and said so, rather than holding the bench for hours.
            rows.append([g.name, "Spark dataframe", "", "", "not run", "",
                         "about 1 s a round over 2 x 1,105 rounds: left out (docs/spark.md)"])
    md = ("The same job file (W1: delta-PageRank 0.01, WCC, SSSP and BFS from a giant-component source; road-FLA: BFS "
          "and SSSP) on graphso (chunk mode, budget 16x the stored graph, 2 threads) and on Spark local[2] with "
          "each back end. Seconds: Spark's session start (the JVM), its load of the Parquet export (cached), its "
          "jobs; graphso's batch wall time. `x graphso`: Spark's jobs over graphso's whole batch. Per job: seconds "
          "(rounds, seconds per round).\n\n" +
          table(["graph", "system", "session s", "load s", "jobs s", "x graphso", "per job"], rows))
    return raw, md + f"\n\n{ctx.threads} threads; commit {ctx.commit}", None


def exp_graphalytics(ctx):
    """LDBC Graphalytics' driver (`graphso graphalytics`) on R-MAT 22 with Graph500's parameters (4.2 M vertices,
    67 M edges: the size of Graphalytics' graph500-22; --quick: R-MAT 14), exported as a Graphalytics dataset with its
    integer weights, undirected as Graphalytics' graph500 datasets are, and directed: all six algorithms, BFS and SSSP
    from the hub, WCC, PageRank x10 (Graphalytics' rule), CDLP x10 and LCC, each alone and the six in one batch, a
    graph budget of a quarter of the stored graph. Tl (convert + prep), Tp (the run's processing), Tm (the command's
    wall time) and EVPS per algorithm; the batch's makespan against the sum of the six alone."""
    scale = 14 if ctx.args.quick else 22
    g = ctx.ordered(f"R-MAT {scale}", f"rmat{scale}-ef16", lambda: ctx.bench.rmat_edges(scale))
    data = os.path.join(ctx.bench.work, "graphalytics")
    os.makedirs(data, exist_ok=True)
    exported = os.path.join(data, f"rmat{scale}.e")
    if not os.path.exists(exported):
        log(f"exporting R-MAT {scale} as a Graphalytics dataset")
        ctx.bench.cli("export", ctx.bench.rmat_edges(scale), "-o", exported, "--format", "graphalytics")
    hub = g.info["hub"]
    raw, rows = {}, []
    for directed in (False, True):
        name = f"graph500-{scale}" + ("-directed" if directed else "")
        base = os.path.join(data, name)
        for ext in (".e", ".v"):  # one export, named for each dataset
            if not os.path.exists(base + ext):
                os.link(exported[:-2] + ext, base + ext)
        with open(base + ".properties", "w") as f:
            f.write(f"graph.{name}.directed = {'true' if directed else 'false'}\n"
                    f"graph.{name}.edge-properties.names = weight\n"
                    f"graph.{name}.edge-properties.types = int\ngraph.{name}.algorithms = bfs, cdlp, lcc, pr, sssp, wcc\n"
                    f"graph.{name}.bfs.source-vertex = {hub}\ngraph.{name}.sssp.source-vertex = {hub}\n"
                    f"graph.{name}.pr.num-iterations = 10\ngraph.{name}.pr.damping-factor = 0.85\n"
                    f"graph.{name}.cdlp.max-iterations = 10\n")
        out = os.path.join(ctx.bench.work, "graphalytics-out", name)
        shutil.rmtree(out, ignore_errors=True)
        # A quarter of the graph as graphso stores it: the directed graph's prepared bytes, twice
        # that when symmetrised.
        budget = stored_bytes(g) // 4 * (1 if directed else 2)
        log(f"  graphalytics {name}: --graph-mem {budget}")
        ctx.bench.cli("graphalytics", base + ".properties", "-o", out, "--graph-mem", budget, "--threads", ctx.threads)
        with open(os.path.join(out, "graphalytics.json")) as f:
            raw[name] = json.load(f)
        dataset = raw[name]["datasets"][0]
        rows += [[name, a["algorithm"], f"{dataset['load_seconds']:.2f}", f"{a['processing_seconds']:.3f}",
                  f"{a['makespan_seconds']:.3f}", f"{a['evps']:.3g}", a["validation"]] for a in dataset["algorithms"]]
        batch = dataset["batch"]
        rows.append([name, f"{batch['jobs']} in one batch", "", f"{batch['processing_seconds']:.3f}",
                     f"{batch['makespan_seconds']:.3f}", "",
                     f"{batch['makespan_seconds'] / batch['makespan_alone_seconds']:.2f}x the {batch['makespan_alone_seconds']:.2f} s alone"])
    md = table(["dataset", "algorithm", "Tl s", "Tp s", "Tm s", "EVPS", "validation / batch"], rows)
    return raw, md, None


def mixed_jobs(g, n):
    kinds = ["bfs", "sssp", "wcc", "pagerank-delta:tolerance=0.01"]
    jobs = []
    for i in range(n):
        kind = kinds[i % 4]
        source = (g.source + 7919 * i) % g.info["vertices"]
        jobs.append(f"{kind}:source={source}" if kind in ("bfs", "sssp") else kind)
    return jobs


def exp_concurrency(ctx):
    g = ctx.rmat()
    rows, raw, series = [], {}, []
    for mode in ["partition", "chunk"]:
        points = []
        for n in [1, 2, 4, 8, 16]:
            r = ctx.batch(g, mixed_jobs(g, n), mode, quarter(g), f"{n} jobs {mode}")
            raw[f"{mode} {n}"] = r
            points.append({"jobs": n, "jobs_per_hour": n / r["wall_seconds"] * 3600, "bytes_per_job": r["bytes_read"] / n})
            rows.append([mode, n, f"{r['wall_seconds']:.2f}", f"{n / r['wall_seconds'] * 3600:.0f}",
                         fmt_bytes(r["bytes_read"]), fmt_bytes(r["bytes_read"] / n)])
        series.append({"series": mode, "points": points})
    md = table(["mode", "jobs", "seconds", "jobs per hour", "bytes read", "bytes per job"], rows)
    md += "\n\nJobs cycle through BFS, SSSP, WCC and delta-PageRank, traversals from different sources."
    setting = ctx.setting(g, "1/4 of the edge bytes", "64 KiB capped by the budget")
    return raw, md, lambda path: plots.concurrency(series, setting, path)


def exp_arrivals(ctx):
    g = ctx.rmat()
    rows, raw, series = [], {}, []
    for mode in ["partition", "chunk"]:
        points = []
        for lam in [0, 1, 2, 4]:
            job_file = os.path.join(ctx.bench.work, f"arrivals-{lam}.toml")
            with open(job_file, "w") as f:
                for i, job in enumerate(w1(g.source)):
                    algo, _, params = job.partition(":")
                    f.write(f'[[job]]\nalgo = "{algo}"\narrive_after = {i * lam}\n')
                    for kv in filter(None, params.split(":")):
                        key, value = kv.split("=")
                        f.write(f"{key} = {value}\n")
                    f.write("\n")
            r = ctx.batch(g, [], mode, quarter(g), f"lambda {lam} {mode}", job_file=job_file)
            raw[f"{mode} {lam}"] = r
            points.append({"lambda": lam, "seconds": r["wall_seconds"], "bytes": r["bytes_read"]})
            rows.append([mode, lam, f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]), r["rounds_total"]])
        series.append({"series": mode, "points": points})
    md = table(["mode", "lambda (rounds between arrivals)", "seconds", "bytes read", "rounds"], rows)
    md += "\n\nW1's job i joins after i x lambda rounds."
    setting = ctx.setting(g, "1/4 of the edge bytes", "64 KiB capped by the budget")
    return raw, md, lambda path: plots.sweep(series, "lambda", "rounds between job arrivals (lambda)", setting, path,
                                             "Staggered arrivals (paper Fig. 17)")


def exp_budgets(ctx):
    g = ctx.rmat()
    rows, raw, series = [], {}, []
    for mode in ["partition", "chunk"]:
        points = []
        for denominator in [16, 8, 4, 2]:
            r = ctx.batch(g, w1(g.source), mode, g.info["edge_bytes"] // denominator, f"budget 1/{denominator} {mode}")
            raw[f"{mode} 1/{denominator}"] = r
            points.append({"fraction": 1 / denominator, "seconds": r["wall_seconds"], "bytes": r["bytes_read"]})
            rows.append([mode, f"1/{denominator}", fmt_bytes(g.info["edge_bytes"] // denominator),
                         f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]), fmt_bytes(r["peak_rss_bytes"])])
        series.append({"series": mode, "points": points})
    md = table(["mode", "budget (of the edge bytes)", "budget", "seconds", "bytes read", "peak RSS"], rows)
    # Issue 18's line: chunk mode within partition mode's time at 1/8; what reading adjacent
    # chunks together (extents, middleware/scheduler.h) gives there, against chunk by chunk; and
    # the default destination order against the paper's priority order (`--pass-order priority`).
    eighth = g.info["edge_bytes"] // 8
    off = ctx.batch(g, w1(g.source), "chunk", eighth, "budget 1/8 chunk, extents off", ("--extent-size", "0"))
    raw["chunk 1/8 extents off"] = off
    priority = ctx.batch(g, w1(g.source), "chunk", eighth, "budget 1/8 chunk, priority order",
                         ("--pass-order", "priority"))
    raw["chunk 1/8 priority order"] = priority
    on, part = raw["chunk 1/8"], raw["partition 1/8"]
    md += ("\n\nAt 1/8: chunk mode against partition mode, extents on (the default) against `--extent-size 0`, "
           "and the default destination order against `--pass-order priority` (the paper's order), which is "
           "also set against partition mode:\n\n")
    md += table(["chunk / partition, time", "chunk / partition, bytes", "extents on / off, time",
                 "extents on / off, bytes", "read requests on / off", "destination / priority, time",
                 "destination / priority, bytes", "priority / partition, time"],
                [[f"**{on['wall_seconds'] / part['wall_seconds']:.3f}**", f"{on['bytes_read'] / part['bytes_read']:.3f}",
                  f"**{on['wall_seconds'] / off['wall_seconds']:.3f}**", f"{on['bytes_read'] / off['bytes_read']:.3f}",
                  f"{on['io_requests']} / {off['io_requests']}",
                  f"**{on['wall_seconds'] / priority['wall_seconds']:.3f}**",
                  f"{on['bytes_read'] / priority['bytes_read']:.3f}",
                  f"{priority['wall_seconds'] / part['wall_seconds']:.3f}"]])
    setting = ctx.setting(g, "varied", "64 KiB capped by the budget")
    return raw, md, lambda path: plots.sweep(series, "fraction", "graph-data budget (fraction of the edge bytes)",
                                             setting, path, "Memory budgets from 1/16 to 1/2 of the graph (paper Fig. 16)",
                                             log_x=True)


# The issue's in-memory simulation of W1 (bytes relative to partition mode, natural order):
# chunk mode as given, after a BFS relabelling, and reading only the pages with active edges.
SIMULATED = {"road-FLA-u": (0.74, 0.045, 0.50), "osm-rome": (1.00, 0.23, 0.98),
             "soc-slashdot0902-d": (0.74, 0.73, 0.71), "ego-twitter-u": (0.93, 0.94, 0.91)}
ORDER_GRAPHS = [("road-FLA-u.el.gz", True), ("osm-rome.wel.gz", False), ("soc-slashdot0902-d.el.gz", False),
                ("ego-twitter-u.el.gz", True)]
ORDER_VARIANTS = [("partition natural", "natural", "partition", ()),
                  ("chunk natural", "natural", "chunk", ()),
                  ("chunk natural page", "natural", "chunk", ("--granularity", "page")),
                  ("chunk natural auto", "natural", "chunk", ("--granularity", "auto")),
                  ("chunk degree", "degree", "chunk", ()),
                  ("chunk bfs", "bfs", "chunk", ()),
                  ("chunk bfs@source", "bfs@source", "chunk", ()),
                  ("chunk bfs@source page", "bfs@source", "chunk", ("--granularity", "page")),
                  ("chunk bfs@source auto", "bfs@source", "chunk", ("--granularity", "auto"))]


def order_chunk(ctx):
    """64 KiB chunks; 16 KiB for --quick's small graph, whose budget holds few 64 KiB chunks."""
    return "16K" if ctx.args.quick else "64K"


ORDERS = [("natural", "natural", None), ("degree", "degree", None), ("bfs", "bfs", None), ("bfs@source", "bfs", 0)]


def order_graphs(ctx):
    """Per graph, its directory in each order: the real graphs, or in --quick a generated road grid."""
    if ctx.args.quick:
        side = QUICK_ROAD_SIDE
        return [{key: ctx.ordered(f"road grid {side}x{side}", f"road{side}", lambda: ctx.bench.road_edges(side), order, root)
                 for key, order, root in ORDERS}]
    return [{key: ctx.dataset(f, sym, order, root) for key, order, root in ORDERS} for f, sym in ORDER_GRAPHS]


def exp_orders(ctx):
    sections, raw, plot_rows = [], {}, []
    table_rows = []
    for graphs in order_graphs(ctx):
        natural_graph = graphs["natural"]
        name = natural_graph.name
        budget = quarter(natural_graph)
        results = {}
        for label, key, sharing, extra in ORDER_VARIANTS:
            extra = (("--chunk-size", order_chunk(ctx)) if sharing == "chunk" else ()) + extra
            results[label] = ctx.batch(graphs[key], w1(0), sharing, budget, label, extra)
        base, natural = results["partition natural"], results["chunk natural"]
        rows = []
        for label, _, _, _ in ORDER_VARIANTS:
            r = results[label]
            rows.append([label, f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]),
                         f"{r['bytes_read'] / base['bytes_read']:.3f}", f"{r['bytes_read'] / natural['bytes_read']:.3f}",
                         f"{r['wall_seconds'] / base['wall_seconds']:.3f}", r["io_requests"],
                         fmt_bytes(r.get("page_bytes", 0)), r.get("chunks_by_pages", 0), f"{r['active_edge_ratio']:.3f}"])
        md = table(["variant", "seconds", "bytes read", "bytes / partition natural", "bytes / chunk natural",
                    "time / partition natural", "requests", "read by pages", "chunks by pages", "active-edge ratio"], rows)
        costs = {key: g.order_cost for key, g in graphs.items()}
        md += "\n\nPrep cost of each order (computing the order; the whole prep):\n\n" + table(
            ["order", "order seconds", "order memory", "prep seconds"],
            [[k, f"{c['order_seconds']:.2f}", c["order_memory"], f"{c['prep_seconds']:.2f}"] for k, c in costs.items()])
        sections.append(f"#### {name} ({natural_graph.info['vertices']:,} vertices, {natural_graph.info['edges']:,} "
                        f"edges, {fmt_bytes(natural_graph.info['edge_bytes'])})\n\n{md}\n")
        best_order = min(["chunk natural", "chunk degree", "chunk bfs", "chunk bfs@source"],
                         key=lambda k: results[k]["bytes_read"])
        better = {o: min(results[f"chunk {o}"]["wall_seconds"], results[f"chunk {o} page"]["wall_seconds"])
                  for o in ["natural", "bfs@source"]}
        measured = {"chunk_natural": natural["bytes_read"] / base["bytes_read"],
                    "chunk_bfs_at_source": results["chunk bfs@source"]["bytes_read"] / base["bytes_read"],
                    "chunk_bfs": results["chunk bfs"]["bytes_read"] / base["bytes_read"],
                    "page_natural": results["chunk natural page"]["bytes_read"] / base["bytes_read"],
                    "best_order_vs_natural": results[best_order]["bytes_read"] / natural["bytes_read"],
                    "auto_vs_better_natural": results["chunk natural auto"]["wall_seconds"] / better["natural"],
                    "auto_vs_better_bfs_at_source":
                        results["chunk bfs@source auto"]["wall_seconds"] / better["bfs@source"]}
        simulated = SIMULATED.get(name, (None, None, None))
        raw[name] = {"graph": natural_graph.info, "budget": budget, "chunk": order_chunk(ctx), "jobs": w1(0),
                     "order_costs": costs, "best_order": best_order, "measured": measured,
                     "simulated": dict(zip(["chunk_natural", "chunk_bfs", "page_natural"], simulated)),
                     "runs": results}
        cell = lambda x: "-" if x is None else f"{x:.3f}"
        table_rows.append([name, cell(simulated[0]), cell(measured["chunk_natural"]), cell(simulated[1]),
                           cell(measured["chunk_bfs_at_source"]), cell(measured["chunk_bfs"]), cell(simulated[2]),
                           cell(measured["page_natural"]), f"{best_order} ({measured['best_order_vs_natural']:.3f})",
                           f"{measured['auto_vs_better_natural']:.3f} / {measured['auto_vs_better_bfs_at_source']:.3f}"])
        plot_rows.append({"graph": name, "variants": {label: results[label]["bytes_read"] / base["bytes_read"]
                                                      for label, _, _, _ in ORDER_VARIANTS}})
    md = (f"W1 from vertex 0, {order_chunk(ctx)} chunks, graph-data budget 1/4 of the edge bytes. bfs = Cuthill-McKee from a "
          "pseudo-peripheral vertex; bfs@source = rooted at the jobs' source (--order-root 0); page/auto = "
          "--granularity.\n\nMeasured next to the in-memory simulation (bytes / partition mode in natural order):\n\n" +
          table(["graph", "chunk, ids as given: simulated", "measured", "chunk after BFS relabelling: simulated",
                 "measured, bfs@source", "measured, bfs", "page reads: simulated", "measured",
                 "best order (bytes / chunk natural)", "auto time / better of chunk and page (natural / bfs@source)"],
                table_rows) + "\n\n" + "\n".join(sections))
    setting = (f"W1 from vertex 0, {order_chunk(ctx)} chunks, budget 1/4 of each graph's edge bytes; {ctx.threads} threads; "
               f"commit {ctx.commit}")
    return raw, md, lambda path: plots.orders(plot_rows, setting, path)


def exp_engines(ctx):
    """W1 in both engines and all three modes: the middleware plugged into a second engine."""
    graphs = [ctx.rmat(), ctx.road()] + ([] if ctx.args.quick else [ctx.dataset("soc-slashdot0902-d.el.gz", False)])
    rows, raw, plot_rows = [], {}, []
    for g in graphs:
        raw[g.name] = {"graph": g.info, "jobs": w1(g.source), "budget": quarter(g), "engines": {}}
        # X-Stream's update budget is a quarter of the graph-data budget, but at least 256 KiB (above the
        # least the engine derives for W1 on these graphs, and enough not to spill every few edges); on
        # graphs too small for that (--quick) it comes on top of the budget.
        updates = max(quarter(g) // 4, 256 << 10)
        settings = {"gridgraph": (quarter(g), ()),
                    "xstream": (max(quarter(g), updates + quarter(g) * 3 // 4), ("--update-mem", updates))}
        for engine in ["gridgraph", "xstream"]:
            budget, extra = settings[engine]
            runs = {mode: ctx.batch(g, w1(g.source), mode, budget, f"{engine} {mode}", ("--engine", engine, *extra))
                    for mode in ["independent", "partition", "chunk"]}
            raw[g.name]["engines"][engine] = runs
            short = g.name.replace("soc-slashdot0902-d", "slashdot").replace("-u", "")
            plot_rows.append({"group": f"{short}\n{engine}",
                              "modes": {m: {"seconds": r["wall_seconds"], "bytes": r["bytes_read"],
                                            "update_bytes_written": r["update_bytes_written"]} for m, r in runs.items()}})
            p = runs["partition"]
            for mode, r in runs.items():
                rows.append([g.name, engine, mode, f"{r['wall_seconds']:.2f}", fmt_bytes(r["bytes_read"]),
                             f"{r['bytes_read'] / p['bytes_read']:.3f}", f"{r['wall_seconds'] / p['wall_seconds']:.3f}",
                             f"{r['active_edge_ratio']:.3f}", fmt_bytes(r["update_bytes"]),
                             fmt_bytes(r["update_bytes_written"]), fmt_bytes(r["update_bytes_read"]),
                             fmt_bytes(r["update_budget_bytes"]), r["rounds_total"]])
    md = table(["graph", "engine", "mode", "seconds", "bytes read", "bytes / partition", "time / partition",
                "active-edge ratio", "updates emitted", "updates written", "updates read back", "update budget",
                "rounds"], rows)
    md += ("\n\nRatios are against partition mode of the same engine. The X-Stream engine takes its update budget "
           "(a quarter, at least 256 KiB) out of the same graph-data budget, so it has less for edges; where a quarter "
           "is under 256 KiB the difference is added to its budget.")
    setting = (f"W1; each graph's budget 1/4 of its edge bytes; chunk size 64 KiB capped by the budget; "
               f"{ctx.threads} threads; commit {ctx.commit}")
    return raw, md, lambda path: plots.engines(plot_rows, setting, path)


# Graph-data budgets of 1/8, 1/4 and 1/2 of the edge bytes. Not 1/16: a relabelled road graph has
# about 48 edge bytes per vertex, and WCC's results need 4 bytes per vertex of the graph budget.
MEMORY_FRACTIONS = [8, 4, 2]
MEMORY_ROAD_SIDE = 256  # the full run's road grid: 65,536 vertices; W1 converges in about 510 rounds


def exp_memory(ctx):
    """Peak RSS against --mem: every engine and mode at three budgets, text results written, on graphs
    relabelled in degree order (so the vertex order's id maps are part of the vertex state)."""
    side = QUICK_ROAD_SIDE if ctx.args.quick else MEMORY_ROAD_SIDE
    graphs = [ctx.ordered(f"road grid {side}x{side}", f"road{side}", lambda: ctx.bench.road_edges(side), "degree")]
    if not ctx.args.quick:
        graphs.append(ctx.ordered(f"R-MAT {ctx.args.scale}", f"rmat{ctx.args.scale}-ef16-w",
                                  lambda: ctx.bench.rmat_edges(ctx.args.scale), "degree"))
    fractions = MEMORY_FRACTIONS[1:] if ctx.args.quick else MEMORY_FRACTIONS
    out_dir = os.path.join(ctx.bench.work, "memory-results")
    rows, raw, series = [], {}, []
    for g in graphs:
        for engine in ["gridgraph", "xstream"]:
            for mode in ["partition", "chunk"]:
                points = []
                for denominator in fractions:
                    budget = g.info["edge_bytes"] // denominator
                    label = f"{g.name} {engine} {mode} 1/{denominator}"
                    r = ctx.bench.run(g.path, w1(0), mode, budget, label, ("--engine", engine, "--out", out_dir))
                    raw[label] = r
                    if "failed" in r:  # a budget below the least this engine and mode need: the refusal says so
                        rows.append([g.name, engine, mode, f"1/{denominator}", fmt_bytes(budget),
                                     "refused: " + r["failed"].split("error: ")[-1], "", "", "", "", ""])
                        continue
                    over = r["peak_rss_bytes"] - r["mem_bytes"]
                    points.append({"fraction": 1 / denominator, "mem": r["mem_bytes"], "peak": r["peak_rss_bytes"]})
                    rows.append([g.name, engine, mode, f"1/{denominator}", fmt_bytes(budget), fmt_bytes(r["mem_bytes"]),
                                 fmt_bytes(r["peak_rss_bytes"]), f"{r['peak_rss_bytes'] / r['mem_bytes']:.3f}",
                                 ("-" if over < 0 else "+") + fmt_bytes(abs(over)), fmt_bytes(r["tchunk_bytes"]),
                                 f"{r['tchunk_index_bytes_read'] / max(1, r['bytes_read']):.4f}"])
                series.append({"series": f"{g.name} {engine} {mode}", "points": points})
    md = table(["graph", "engine", "mode", "graph budget (of the edge bytes)", "graph budget", "--mem (vertex state + "
                "graph budget)", "peak RSS", "peak RSS / --mem", "peak RSS - --mem", "TChunk table in memory",
                "of bytes read: TChunk index read on demand"], rows)
    md += ("\n\nW1 from vertex 0, results written as text (`--out`); peak RSS is "
           "the report's `peak_rss_bytes` (VmHWM, taken after the results are written; `make test` checks it "
           "against the kernel's account of the child). What is above --mem is the program itself (code, "
           "libraries, thread stacks). The TChunk source index stays in memory as far as the budget allows; the "
           "rest is read per chunk when a frontier needs it, and those bytes are part of the bytes read.")
    setting = f"W1, degree order, text results; {ctx.threads} threads; commit {ctx.commit}"
    return raw, md, lambda path: plots.memory(series, setting, path)


def exp_store(ctx):
    """XPGraph's ingest against the naive baseline (GraphOne on PMEM): same input, same run, 2 threads."""
    scale = ctx.args.scale if ctx.args.quick else max(ctx.args.scale, 20)
    inputs = [(f"R-MAT {scale}", ctx.bench.rmat_plain_edges(scale))]
    if ctx.args.quick:
        inputs.append((f"road grid {QUICK_ROAD_SIDE}x{QUICK_ROAD_SIDE}", ctx.bench.road_edges(QUICK_ROAD_SIDE)))
    else:
        inputs.append(("soc-slashdot0902-d", ctx.bench.dataset_edges("soc-slashdot0902-d.el.gz", False)))
    threads = 2
    rows, raw, plot_rows = [], {}, []
    for name, edges in inputs:
        runs = {}
        for mode in ["xpgraph", "naive"]:
            reports = sorted((ctx.bench.ingest(edges, mode, threads, f"{name} ({k + 1}/{ctx.repeats})")
                              for k in range(ctx.repeats)), key=lambda r: r["seconds"])
            runs[mode] = dict(reports[len(reports) // 2], all_seconds=[r["seconds"] for r in reports])
        raw[name] = runs
        x, n = runs["xpgraph"], runs["naive"]
        plot_rows.append({"graph": name, "modes": {m: {"edges_per_second": r["edges_per_second"],
                                                       "line_bytes_per_edge": r["line_bytes_per_edge"],
                                                       "device_bytes_per_edge": r["device_write_bytes"] / r["edges"]}
                                                   for m, r in runs.items()}})
        for mode, r in runs.items():
            rows.append([name, mode, f"{r['edges']:,}", f"{r['seconds']:.2f}", f"{r['edges_per_second'] / 1e6:.2f} M",
                         f"{r['line_bytes_per_edge']:.1f}", f"{r['device_write_bytes'] / r['edges']:.1f}",
                         f"{r['final_flush_seconds']:.2f}", r["persists"], r["checkpoints"]])
        rows.append([name, "**xpgraph / naive**", "", "", f"**{x['edges_per_second'] / n['edges_per_second']:.2f}x**",
                     f"**{n['line_bytes_per_edge'] / x['line_bytes_per_edge']:.2f}x fewer**",
                     f"**{n['device_write_bytes'] / max(1, x['device_write_bytes']):.2f}x fewer**", "", "", ""])
    md = table(["input", "store mode", "edges", "seconds", "edges/s", "persisted bytes/edge (256-byte lines)",
                "device bytes written/edge", "final flush (s)", "persists", "checkpoints"], rows)
    md += ("\n\nBoth modes acknowledge a batch (65,536 edges) only once it is durable. xpgraph persists the log and, at "
           "checkpoints, whole blocks; naive writes every edge into its adjacency lists in place and persists the "
           "lines it touched with the batch. Persisted bytes count each persisted range rounded out to 256-byte "
           "XPLines (what PMEM media would write); device bytes are what this process dirtied in the page cache of "
           "the file standing in for PMEM (/proc/self/io write_bytes), which is written in 4 KiB pages.")
    setting = f"{threads} ingest threads, batch 65536, default store geometry; commit {ctx.commit}"
    return raw, md, lambda path: plots.store(plot_rows, setting, path)


def exp_evolving(ctx):
    """DGAP's method on an evolving graph, every store mode side by side: load 10% of the edges,
    insert the rest but 1,000 in batches (2 threads), then BFS, PageRank x10 and WCC as one batch
    on the live store (`run STORE`), against snapshot + run and prep + run of the same edges; then
    freshness: 1,000 more edges acknowledged, and the time until a BFS that includes them ends."""
    scale = ctx.args.scale if ctx.args.quick else max(ctx.args.scale, 20)
    inputs = [(f"R-MAT {scale}", ctx.bench.rmat_plain_edges(scale))]
    inputs.append(("soc-slashdot0902-d", ctx.bench.dataset_edges("soc-slashdot0902-d.el.gz", False))
                  if not ctx.args.quick else
                  (f"road grid {QUICK_ROAD_SIDE}x{QUICK_ROAD_SIDE}", ctx.bench.road_edges(QUICK_ROAD_SIDE)))
    jobs = ["bfs:source=0", "pagerank:iterations=10", "wcc"]
    threads = 2
    work = ctx.bench.work
    rows, raw, engine_rows = [], {}, []

    def timed(*args):
        started = time.time()
        out = ctx.bench.cli(*args)
        return time.time() - started, out

    engines = ["gridgraph", "xstream"]

    def run_report(graph, label, engine="xstream"):
        r = ctx.bench.run(graph, jobs, "chunk", graph_mem, label, ("--engine", engine), threads=threads)
        if "failed" in r:
            raise SystemExit(f"bench: evolving {label} failed: {r['failed']}")
        return r

    for name, edges in inputs:
        stem = os.path.join(work, "evolving-" + os.path.basename(edges).rsplit(".", 1)[0])
        _, count = edge_list_counts(edges)
        load_end, fresh_start = count // 10, count - 1000
        parts = {"load": (0, load_end), "insert": (load_end, fresh_start), "fresh": (fresh_start, count),
                 "before_fresh": (0, fresh_start)}
        for part, (a, b) in parts.items():
            ctx.bench.cli("convert", edges, "-o", f"{stem}.{part}.bin", "--slice", f"{a}:{b}")
        # The same edges prepared directly, for the run and the budget (a quarter of its bytes).
        prepared = stem + ".prepared"
        prep_seconds, _ = timed("prep", f"{stem}.before_fresh.bin", "-o", prepared, "--engine", "both")
        graph_bytes = ctx.bench.graph_info(prepared)["edge_bytes"]
        graph_mem = max(1 << 20, graph_bytes // 4)
        prepared_run = run_report(prepared, f"{name} prepared", "gridgraph")
        runs = {}
        # Each engine on the store against the same engine on the prepared directory, the two runs
        # side by side (prepared, in place), so a ratio compares runs minutes apart at most.
        engine_pairs = {}
        for mode in ["xpgraph", "dgap", "gear", "ftgraph", "naive"]:
            store = os.path.join(work, f"evolving.{mode}.store")
            remove_stores(store)
            report = os.path.join(work, "evolving.ingest.json")
            log(f"  {name}: {mode}: load 10%, insert the rest")
            ctx.bench.cli("ingest", store, "--input", f"{stem}.load.bin", "--store-mode", mode, "--threads", threads,
                          "--expect-edges", count)
            ctx.bench.cli("ingest", store, "--input", f"{stem}.insert.bin", "--threads", threads, "--report", report)
            with open(report) as f:
                ingest = json.load(f)
            engine_pairs[mode] = {}
            for engine in engines:
                engine_pairs[mode][engine] = {
                    "prepared": run_report(prepared, f"{name} prepared ({engine})", engine),
                    "in_place": run_report(store, f"{name} {mode} in place ({engine})", engine)}
            in_place = engine_pairs[mode]["gridgraph"]["in_place"]
            snapshot = store + ".snapshot"
            shutil.rmtree(snapshot, ignore_errors=True)
            snapshot_seconds, _ = timed("snapshot", store, "-o", snapshot, "--engine", "both")
            on_snapshot = run_report(snapshot, f"{name} {mode} snapshot", "gridgraph")
            shutil.rmtree(snapshot, ignore_errors=True)
            # Freshness: 1,000 edges acknowledged (the ingest returns once they are durable), then
            # a BFS on the store that includes them.
            fresh_ingest, _ = timed("ingest", store, "--input", f"{stem}.fresh.bin", "--threads", threads)
            fresh_run, out = timed("run", store, "--job", "bfs:source=0", "--graph-mem", graph_mem,
                                   "--threads", threads)
            runs[mode] = {"ingest": ingest, "in_place": in_place, "engines": engine_pairs[mode], "snapshot_seconds": snapshot_seconds,
                          "on_snapshot": on_snapshot, "fresh_ingest_seconds": fresh_ingest,
                          "fresh_run_seconds": fresh_run}
            os.remove(store)
        raw[name] = {"edges": count, "prep_seconds": prep_seconds, "prepared_run": prepared_run, "modes": runs}
        base = prepared_run["wall_seconds"]
        for mode, r in runs.items():
            ing, place = r["ingest"], r["in_place"]
            rows.append([name, mode, f"{ing['edges_per_second'] / 1e6:.2f} M", f"{ing['line_bytes_per_edge']:.1f}",
                         f"{place['wall_seconds']:.2f} ({place['store']['open_seconds']:.2f} open)",
                         f"{place['wall_seconds'] / r['engines']['gridgraph']['prepared']['wall_seconds']:.2f}x",
                         f"{r['snapshot_seconds']:.2f} + {r['on_snapshot']['wall_seconds']:.2f}",
                         f"{r['fresh_ingest_seconds'] + r['fresh_run_seconds']:.2f}",
                         f"{place['store']['pages_in_place']:,} / {place['store']['pages_rewritten']:,}"])
        rows.append([name, "prepared directory", "", "", f"{base:.2f}", "1.00x",
                     f"prep {prep_seconds:.2f} + {base:.2f}", "", ""])
        for mode, r in runs.items():
            pairs = r["engines"]
            cells = [f"{pairs[e]['in_place']['wall_seconds']:.2f} / {pairs[e]['prepared']['wall_seconds']:.2f} = "
                     f"**{pairs[e]['in_place']['wall_seconds'] / pairs[e]['prepared']['wall_seconds']:.2f}x**"
                     for e in engines]
            engine_rows.append([name, mode, *cells,
                                f"{pairs['gridgraph']['in_place']['wall_seconds'] / pairs['xstream']['in_place']['wall_seconds']:.2f}x"])
        x, d, g, t = runs["xpgraph"], runs["dgap"], runs["gear"], runs["ftgraph"]
        rows.append([name, "**ftgraph / xpgraph**",
                     f"**{t['ingest']['edges_per_second'] / x['ingest']['edges_per_second']:.2f}x**",
                     f"**{t['ingest']['line_bytes_per_edge'] / x['ingest']['line_bytes_per_edge']:.2f}x**",
                     f"**{t['in_place']['wall_seconds'] / x['in_place']['wall_seconds']:.2f}x**", "",
                     f"**snapshot {t['snapshot_seconds'] / x['snapshot_seconds']:.2f}x**",
                     f"**{(t['fresh_ingest_seconds'] + t['fresh_run_seconds']) / (x['fresh_ingest_seconds'] + x['fresh_run_seconds']):.2f}x**",
                     ""])
        rows.append([name, "**gear / xpgraph**",
                     f"**{g['ingest']['edges_per_second'] / x['ingest']['edges_per_second']:.2f}x**",
                     f"**{g['ingest']['line_bytes_per_edge'] / x['ingest']['line_bytes_per_edge']:.2f}x**",
                     f"**{g['in_place']['wall_seconds'] / x['in_place']['wall_seconds']:.2f}x**", "",
                     f"**snapshot {g['snapshot_seconds'] / x['snapshot_seconds']:.2f}x**",
                     f"**{(g['fresh_ingest_seconds'] + g['fresh_run_seconds']) / (x['fresh_ingest_seconds'] + x['fresh_run_seconds']):.2f}x**",
                     ""])
        rows.append([name, "**dgap / xpgraph**",
                     f"**{d['ingest']['edges_per_second'] / x['ingest']['edges_per_second']:.2f}x**",
                     f"**{d['ingest']['line_bytes_per_edge'] / x['ingest']['line_bytes_per_edge']:.2f}x**",
                     f"**{d['in_place']['wall_seconds'] / x['in_place']['wall_seconds']:.2f}x**", "",
                     f"**snapshot {d['snapshot_seconds'] / x['snapshot_seconds']:.2f}x**",
                     f"**{(d['fresh_ingest_seconds'] + d['fresh_run_seconds']) / (x['fresh_ingest_seconds'] + x['fresh_run_seconds']):.2f}x**",
                     ""])
    md = table(["input", "store mode", "insert edges/s", "persisted bytes/edge", "batch in place (s)",
                "in place / prepared", "snapshot + run (s)", "freshness (s)", "pages in place / rewritten"], rows)
    md += ("\n\nInsert: the 90% after a 10% load, batch 65,536, 2 threads, the ingest's own report (persisted bytes "
           "in 256-byte XPLines). Batch: BFS, PageRank x10 and WCC in chunk mode with the GridGraph engine, "
           "graph-data budget a quarter of the prepared graph's bytes, 2 threads; in place is `run STORE`: the "
           "batch's time, and in parentheses the open before it (the store's view, its pages laid out, the chain "
           "and tree modes' edges copied to scratch); in place / prepared against the prepared run beside it, "
           "below; snapshot + run is `snapshot` then "
           "`run` on it, prepared is `prep` of the same edges then `run`. Freshness: `ingest` of 1,000 edges (they "
           "are acknowledged when it returns) plus `run STORE --job bfs`, both whole processes.")
    md += "\n\n" + table(["input", "store mode", "GridGraph: in place / prepared (s)", "X-Stream: in place / prepared (s)",
                          "in place: GridGraph / X-Stream"], engine_rows)
    md += ("\n\nThe same batch in each engine, on the store in place and on the prepared directory, run side by side "
           "(prepared, then in place) for each store mode. On a store the GridGraph engine is a grid of one column "
           "(the store's sections, every destination), its threads splitting each load by destination windows "
           "(engine/edge_processor.h).")
    setting = f"{threads} threads; commit {ctx.commit}"
    return raw, md + f"\n\n{setting}", None


def exp_evolving_steps(ctx):
    """GEAR's method: a graph evolving in many small steps, each step one `ingest` that ends with a
    checkpoint. Two streams: R-MAT at max(--scale, 20) split into 1,000 steps, and a skewed stream
    of the same size where 1% of the vertices take half the ends (`generate skewed`). Every mode's
    store takes step k before any takes step k + 1. After each tenth of the steps, BFS then SSSP
    on each live store (`run STORE`), the modes alternated and repeated: the store traversal (every
    vertex's out-list read through the store's view; the layout's own sorting and encoding left
    out), the whole run, the store pages and blocks or lists read. At the end: relocation's bytes
    against xpgraph's persisted bytes, page write max/mean with wear levelling on and off."""
    quick = ctx.args.quick
    scale = ctx.args.scale if quick else max(ctx.args.scale, 20)
    steps = 10 if quick else 1000
    repeats = 1 if quick else max(3, ctx.repeats)
    threads = 2
    work = ctx.bench.work
    skewed = os.path.join(work, f"skewed{scale}.bin")
    if not os.path.exists(skewed):
        log(f"generating the skewed stream at scale {scale}")
        ctx.bench.cli("generate", "skewed", "--scale", scale, "--edge-factor", 16, "--seed", 1, "-o", skewed)
    streams = [(f"R-MAT {scale}", ctx.bench.rmat_plain_edges(scale), ["xpgraph", "gear", "dgap"]),
               (f"skewed {scale} (1% take half)", skewed, ["xpgraph", "gear", "gear, levelling off"])]
    raw, rows, wear_rows = {}, [], []

    def store_of(mode):
        return os.path.join(work, "steps." + mode.replace(", levelling off", "-off") + ".store")

    for name, edges, modes in streams:
        _, count = edge_list_counts(edges)
        remove_stores(*(store_of(mode) for mode in modes))
        step_file = os.path.join(work, "steps.step.bin")
        report = os.path.join(work, "steps.ingest.json")
        persisted = {mode: 0 for mode in modes}
        ingest_seconds = {mode: 0.0 for mode in modes}
        tenths = []
        log(f"  {name}: {steps} steps into {', '.join(modes)}")
        for k in range(steps):
            a, b = count * k // steps, count * (k + 1) // steps
            ctx.bench.cli("convert", edges, "-o", step_file, "--slice", f"{a}:{b}")
            for mode in modes:
                args = ["ingest", store_of(mode), "--input", step_file, "--threads", threads, "--expect-edges", count,
                        "--report", report]
                if k == 0:
                    args += ["--store-mode", mode.split(",")[0]]
                    if mode == "xpgraph":
                        # Each step's checkpoint writes a partly filled block per list it touched:
                        # 64-256 bytes per edge end, more than the default geometry plans for.
                        args += ["--block-space", max(1 << 24, count * 2 * 160)]
                if mode.endswith("levelling off"):
                    args += ["--wear-levelling", "off"]  # an ingest's option, given to each
                ctx.bench.cli(*args)
                with open(report) as f:
                    r = json.load(f)
                persisted[mode] += r["persisted_line_bytes"]
                ingest_seconds[mode] += r["seconds"]
            if (k + 1) % (steps // 10) != 0:
                continue
            tenth = {"step": k + 1, "modes": {}}
            runs = {mode: [] for mode in modes}
            for rep in range(repeats):
                for mode in (modes if rep % 2 == 0 else list(reversed(modes))):
                    out = os.path.join(work, "steps.run.json")
                    ctx.bench.cli("run", store_of(mode), "--job", "bfs:source=random", "--job", "sssp:source=random",
                                  "--threads", threads, "--graph-mem", max(1 << 20, count), "--report", out)
                    with open(out) as f:
                        runs[mode].append(json.load(f))
            for mode in modes:
                rs = sorted(runs[mode], key=lambda r: r["store"]["traversal_seconds"])
                med = rs[len(rs) // 2]
                walls = sorted(r["wall_seconds"] + r["store"]["open_seconds"] for r in runs[mode])
                tenth["modes"][mode] = {"traversal_seconds": med["store"]["traversal_seconds"],
                                        "all_traversal_seconds": [r["store"]["traversal_seconds"] for r in rs],
                                        "run_seconds": walls[len(walls) // 2], "all_run_seconds": walls,
                                        "store_pages_read": med["store"]["store_pages_read"],
                                        "lists_read": med["store"]["lists_read"]}
            tenths.append(tenth)
        stats = {mode: key_values(ctx.bench.cli("store-stat", store_of(mode))) for mode in modes}
        raw[name] = {"edges": count, "steps": steps, "repeats": repeats, "tenths": tenths,
                     "persisted_line_bytes": persisted, "ingest_seconds": ingest_seconds, "store_stat": stats}
        for t in tenths:
            x = t["modes"]["xpgraph"]
            for mode in modes:
                m = t["modes"][mode]
                # dgap's sections are the run's pages, read in place by the engine: no traversal of its own.
                in_place = mode == "dgap"
                rows.append([name, t["step"], mode, "in place" if in_place else f"{m['traversal_seconds']:.3f}",
                             f"{m['run_seconds']:.2f}", "" if in_place else f"{m['store_pages_read']:,}",
                             "" if in_place else f"{m['lists_read']:,}",
                             "" if mode == "xpgraph" or in_place else
                             f"**{m['traversal_seconds'] / x['traversal_seconds']:.2f}x**",
                             "" if mode == "xpgraph" else f"{m['run_seconds'] / x['run_seconds']:.2f}x"])
        for mode in modes:
            st = stats[mode]
            ratio = lambda key: f"{float(st[key]):.2f}" if key in st else ""
            wear_rows.append([name, mode, fmt_bytes(persisted[mode]), f"{ingest_seconds[mode]:.1f}",
                              fmt_bytes(int(st.get("relocated_bytes", 0))) + (
                                  f" ({int(st['relocated_bytes']) / persisted['xpgraph']:.3f} of xpgraph's persisted)"
                                  if "relocated_bytes" in st else ""),
                              fmt_bytes(int(st["wear_moved_bytes"])) if "wear_moved_bytes" in st else "",
                              st.get("page_writes_max", ""), ratio("page_writes_mean"), ratio("page_writes_max_over_mean")])
        for mode in modes:
            if mode in ("xpgraph", "dgap"):
                continue
            r = [t["modes"][mode]["traversal_seconds"] / t["modes"]["xpgraph"]["traversal_seconds"] for t in tenths]
            raw[name][f"{mode} / xpgraph traversal"] = {"best": min(r), "worst": max(r), "median": statistics.median(r)}
            r = [t["modes"][mode]["run_seconds"] / t["modes"]["xpgraph"]["run_seconds"] for t in tenths]
            raw[name][f"{mode} / xpgraph run"] = {"best": min(r), "worst": max(r), "median": statistics.median(r)}
    md = table(["stream", "after step", "store mode", "traversal (s)", "BFS + SSSP run (s)", "store pages read",
                "blocks / lists read", "traversal / xpgraph", "run / xpgraph"], rows)
    md += "\n\n" + table(["stream", "store mode", "persisted (all steps)", "ingest (s)", "relocation rewrote",
                           "wear moves rewrote", "page writes max", "mean", "max / mean"], wear_rows)
    for name in raw:
        for key, v in raw[name].items():
            if key.endswith("/ xpgraph traversal") or key.endswith("/ xpgraph run"):
                md += (f"\n\n{name}: {key} {v['median']:.2f}x (median of the tenths), best {v['best']:.2f}x, "
                       f"worst {v['worst']:.2f}x.")
    md += ("\n\nEach step is one `ingest` process (batch 65,536, 2 threads) that ends with a checkpoint, so each "
           "step's edges reach each vertex's chain (xpgraph: one more small block), list (gear: appended in its "
           "subpage's reserved space, or the list relocated) or section (dgap). Traversal: `run STORE`'s read of "
           "every vertex's out-list through the view (`store.traversal_seconds`), the median of the repeats, the "
           "modes alternated; run: the whole BFS + SSSP batch in chunk mode with the GridGraph engine on the run's "
           "layout of the store, graph budget the edge count in bytes (about a quarter of the packed graph), "
           "store open included. Page writes: subpage writes per 4 KiB page over the pages written at least once "
           "(gear's page table). Persisted: every step's ingest report (256-byte lines).")
    return raw, md + f"\n\n{threads} threads, {repeats} repeats; commit {ctx.commit}", None

def exp_store_growth(ctx):
    """Issue 64: every store mode created from one edge and fed R-MAT (max(--scale, 20); --quick: its
    scale) in random-sized steps, one `ingest` each with no sizing options, against one ingest of the
    whole list into a store created for it: the file's size, the ingest time, the growths, and WCC on
    both stores compared byte for byte."""
    quick = ctx.args.quick
    edges, scale, _, count = store_rmat(ctx)
    steps = 10 if quick else 1000
    threads = 2
    work = ctx.bench.work
    rng = random.Random(5)
    cuts = [1] + sorted(rng.sample(range(2, count), steps - 1)) + [count]
    step_files = []
    for k in range(steps):
        path = os.path.join(work, f"growth.step{k}.bin")
        ctx.bench.cli("convert", edges, "-o", path, "--slice", f"{cuts[k]}:{cuts[k + 1]}")
        step_files.append(path)
    first = os.path.join(work, "growth.first.bin")
    ctx.bench.cli("convert", edges, "-o", first, "--slice", "0:1")
    report = os.path.join(work, "growth.ingest.json")
    raw, rows = {}, []
    for mode in ["xpgraph", "naive", "dgap", "gear", "ftgraph"]:
        grown, presized = os.path.join(work, f"growth.{mode}.store"), os.path.join(work, f"presized.{mode}.store")
        remove_stores(grown, presized)
        ctx.bench.cli("ingest", grown, "--input", first, "--store-mode", mode, "--threads", threads)
        seconds, growths, growth_seconds, growth_edges = 0.0, 0, 0.0, 0
        for path in step_files:
            ctx.bench.cli("ingest", grown, "--input", path, "--threads", threads, "--report", report)
            with open(report) as f:
                r = json.load(f)
            seconds += r["seconds"]
            growths += r["growths"]
            growth_seconds += r["growth_seconds"]
            growth_edges += r["growth_edges"]
        ctx.bench.cli("ingest", presized, "--input", edges, "--store-mode", mode, "--threads", threads, "--report", report)
        with open(report) as f:
            one = json.load(f)
        results = {}
        for label, store in (("grown", grown), ("presized", presized)):
            out = os.path.join(work, f"growth.{label}.out")
            ctx.bench.cli("run", store, "--job", "wcc", "--threads", threads, "--out", out)
            with open(os.path.join(out, "0-wcc.txt"), "rb") as f:
                results[label] = f.read()
        x = {"steps": steps, "edges": count, "grown_file_bytes": os.path.getsize(grown),
             "presized_file_bytes": os.path.getsize(presized), "steps_ingest_seconds": seconds,
             "one_ingest_seconds": one["seconds"], "growths": growths, "growth_seconds": growth_seconds,
             "growth_edges": growth_edges, "wcc_equal": results["grown"] == results["presized"]}
        x["file_ratio"] = x["grown_file_bytes"] / x["presized_file_bytes"]
        raw[mode] = x
        rows.append([mode, fmt_bytes(x["grown_file_bytes"]), fmt_bytes(x["presized_file_bytes"]),
                     f"**{x['file_ratio']:.2f}x**", growths, f"{growth_edges:,}", f"{growth_seconds:.1f}",
                     f"{seconds:.1f}", f"{one['seconds']:.1f}", "yes" if x["wcc_equal"] else "**no**"])
        for path in (grown, presized):
            os.remove(path)
    for path in step_files + [first]:
        os.remove(path)
    md = table(["store mode", "grown file", "presized file", "grown / presized", "growths", "edges copied",
                "growth (s)", "ingest, all steps (s)", "one ingest (s)", "WCC equal"], rows)
    md += (f"\n\nR-MAT {scale} ({count:,} edges) from a store created by its first edge, in {steps} steps of "
           "random sizes, one `ingest` process each with no sizing option; presized: one `ingest` of the whole "
           "list into a new store. Growth: rebuilds into a larger file (docs/store.md, \"Growth\"), inside the "
           "steps' ingest time. The steps' ingest time is the sum of the reports' `seconds` (each process's "
           "batches and final checkpoint, not its start-up); one ingest the same for the whole list.")
    return raw, md + f"\n\n{threads} threads; commit {ctx.commit}", None


def exp_evolving_stream(ctx):
    """Issue 64: R-MAT (max(--scale, 20); --quick: its scale) written into `ingest --input -` by the bench's
    stream client in 100-edge pieces (binary frames), group commit every 10 ms, against one ingest of the same
    file in 64 K batches, alternated, every mode; the rate from each ingest's report and each piece's latency
    from its write to its acknowledgement. Then, xpgraph and dgap: a store holding a quarter of the graph takes
    the rest while `run STORE` batches (BFS + WCC) loop beside it, against the ingest alone and the runs on an
    idle store (interpolated between the store's first and last version by the version each run read)."""
    quick = ctx.args.quick
    edges, scale, vertices, count = store_rmat(ctx)
    repeats = 1 if quick else 2
    threads = 2
    work = ctx.bench.work
    report = os.path.join(work, "stream.ingest.json")
    store = os.path.join(work, "stream.store")

    def load(path):
        with open(path) as f:
            return json.load(f)

    def file_ingest(mode, source):
        remove_stores(store)
        ctx.bench.cli("ingest", store, "--input", source, "--store-mode", mode, "--threads", threads, "--report", report)
        return load(report)

    def stream_ingest(mode, source, n):
        remove_stores(store)
        command = [ctx.bench.stream_client, source, "--piece", "100", "--", ctx.bench.graphso, "ingest", store,
                   "--input", "-", "--store-mode", mode, "--threads", str(threads), "--commit-every", "10ms",
                   "--vertices", str(vertices), "--expect-edges", str(n), "--report", report]
        out = subprocess.run(command, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"bench: `{' '.join(command)}` failed:\n{out.stderr}")
        client = json.loads(out.stdout)
        return {"ingest": load(report), "client": client}

    # naive and ftgraph persist every batch's edges in place (ftgraph ~0.1-0.2 M edges/s here, slower
    # in small groups): they take the first eighth of the list, so the experiment stays minutes.
    eighth = os.path.join(work, "stream.eighth.bin")
    ctx.bench.cli("convert", edges, "-o", eighth, "--slice", f"0:{count // 8}")
    raw, rows = {"scale": scale, "edges": count, "modes": {}}, []
    for mode in ["xpgraph", "dgap", "gear", "naive", "ftgraph"]:
        slow = mode in ("naive", "ftgraph")
        source, n = (eighth, count // 8) if slow else (edges, count)
        files, streams = [], []
        for k in range(repeats):
            for which in (["file", "stream"] if k % 2 == 0 else ["stream", "file"]):
                log(f"  {mode}: {which} ingest ({k + 1}/{repeats})")
                if which == "file":
                    files.append(file_ingest(mode, source))
                else:
                    streams.append(stream_ingest(mode, source, n))
        file_rate = statistics.median(r["edges_per_second"] for r in files)
        stream_rate = statistics.median(r["ingest"]["edges_per_second"] for r in streams)
        p99 = statistics.median(r["client"]["latency_ms_p99"] for r in streams)
        p50 = statistics.median(r["client"]["latency_ms_p50"] for r in streams)
        worst = max(r["client"]["latency_ms_max"] for r in streams)
        raw["modes"][mode] = {"edges": n, "file": files, "stream": streams, "ratio": stream_rate / file_rate}
        rows.append([mode + (" (first 1/8)" if slow else ""), f"{file_rate / 1e6:.2f} M", f"{stream_rate / 1e6:.2f} M", f"**{stream_rate / file_rate:.2f}x**",
                     f"{p50:.1f}", f"**{p99:.1f}**", f"{worst:.0f}",
                     f"{statistics.median(r['ingest']['groups'] for r in streams):,.0f}",
                     f"{statistics.median(r['ingest']['group_commit_ms_p99'] for r in streams):.1f}"])
    remove_stores(store)
    os.remove(eighth)
    md = table(["store mode", "file ingest, batch 64 K (edges/s)", "stream, 100-edge writes (edges/s)",
                "stream / file", "latency p50 (ms)", "latency p99 (ms)", "latency max (ms)", "groups",
                "group commit p99 (ms)"], rows)
    md += (f"\n\nR-MAT {scale} ({count:,} edges; naive and ftgraph its first eighth). File: one `ingest` of the edge list (batch 65,536), store sized from "
           "it. Stream: the bench's stream client (tools/bench/stream_client) writes the same edges as a binary "
           "stream in 100-edge pieces into `ingest --input - --commit-every 10ms` (groups of at most 16,384), store "
           "sized by --vertices and --expect-edges alike; latency from each piece's write returning to the "
           "`acknowledged N` line covering it, read by the client. Rates from each ingest's report (its batches "
           f"and final checkpoint); median of {repeats} alternated runs each. Targets (xpgraph, dgap): stream >= "
           "0.8x the file's rate, p99 <= 20 ms.")

    # Beside the jobs: a quarter loaded, the rest ingested while BFS + WCC batches loop on the store.
    quarter = os.path.join(work, "stream.quarter.bin")
    rest = os.path.join(work, "stream.rest.bin")
    ctx.bench.cli("convert", edges, "-o", quarter, "--slice", f"0:{count // 4}")
    ctx.bench.cli("convert", edges, "-o", rest, "--slice", f"{count // 4}:{count}")
    base = os.path.join(work, "stream.base.store")
    jobs = ["--job", "bfs:source=0", "--job", "wcc"]

    def run_once(path):
        started = time.time()
        out = ctx.bench.cli("run", path, *jobs, "--threads", threads)
        version = 0
        for word in out.split("at version ")[1:2]:
            version = int(word.split(":")[0].split()[0])
        return time.time() - started, version

    beside_rows = []
    for mode in ["xpgraph", "dgap"]:
        remove_stores(base)
        ctx.bench.cli("ingest", base, "--input", quarter, "--store-mode", mode, "--threads", threads)
        idle_start = [run_once(base) for _ in range(2)]
        alone, beside, runs, idle_end = [], [], [], []
        for k in range(repeats):
            for which in (["alone", "beside"] if k % 2 == 0 else ["beside", "alone"]):
                remove_stores(store)
                shutil.copyfile(base, store)
                log(f"  {mode}: ingest {which} ({k + 1}/{repeats})")
                process = subprocess.Popen([ctx.bench.graphso, "ingest", store, "--input", rest, "--threads",
                                            str(threads), "--report", report], stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE, text=True)
                if which == "beside":
                    while process.poll() is None and len(runs) < 4 * (k + 1):
                        seconds, version = run_once(store)
                        runs.append({"seconds": seconds, "version": version, "during": process.poll() is None})
                if process.wait() != 0:
                    raise SystemExit(f"bench: ingest beside runs failed:\n{process.stderr.read()}")
                (beside if which == "beside" else alone).append(load(report)["edges_per_second"])
                if which == "alone" and not idle_end:
                    idle_end = [run_once(store) for _ in range(2)]
        t0, v0 = statistics.median(t for t, _ in idle_start), idle_start[0][1]
        t1, v1 = statistics.median(t for t, _ in idle_end), idle_end[0][1]
        ratios = []
        for r in runs:
            idle = t0 + (t1 - t0) * (r["version"] - v0) / max(1, v1 - v0)
            r["idle_seconds"] = idle
            ratios.append(r["seconds"] / idle)
        during = [x for x, r in zip(ratios, runs) if r["during"]]
        raw[f"beside_{mode}"] = {"alone": alone, "beside": beside, "runs": runs, "idle_start": idle_start,
                                 "idle_end": idle_end}
        ingest_ratio = statistics.median(beside) / statistics.median(alone)
        beside_rows.append([mode, f"{statistics.median(alone) / 1e6:.2f} M", f"{statistics.median(beside) / 1e6:.2f} M",
                            f"**{ingest_ratio:.2f}x**", f"{t0:.2f} / {t1:.2f}", len(during),
                            f"**{statistics.median(during):.2f}x**" if during else "none overlapped",
                            f"{max(during):.2f}x" if during else ""])
        remove_stores(store)
        remove_stores(base)
    for path in (quarter, rest):
        os.remove(path)
    md += "\n\n" + table(["store mode", "ingest alone (edges/s)", "ingest beside runs (edges/s)", "beside / alone",
                          "run on idle store, first / last version (s)", "runs during ingest",
                          "run beside / idle (median)", "worst"], beside_rows)
    md += ("\n\nA store holding a quarter of the graph ingests the rest (one `ingest`, batch 65,536) alone, or while "
           "`run STORE --job bfs:source=0 --job wcc` batches run one after another beside it (at most 4 per ingest). "
           "Each run reads the version durable when it opened; its idle time is interpolated between runs on the "
           "idle store at the first and last version. Targets: ingest >= 0.7x alone, each run <= 1.3x idle.")
    return raw, md + f"\n\n{threads} threads each; commit {ctx.commit}", None


def exp_evolving_versions(ctx):
    """Issue 65, item 4: jobs that pin two versions of a live dgap store in one batch. R-MAT (max(--scale, 20);
    --quick: its scale) ingested and checkpointed, then 1% more edges and 1% more again through a stream the
    ingest keeps open (so both versions stay in the log): version v1 after the first, v2 (the head) after the
    second. Batch: BFS, PageRank x10 and WCC, chunk mode, GridGraph engine, graph-data budget a quarter of the
    store's pages. Alternated: the batch at v2 alone, at v1 alone, and both in one run (the same three jobs at
    each version); bytes read and time from each run's report."""
    quick = ctx.args.quick
    edges, scale, _, count = store_rmat(ctx)
    repeats = 1 if quick else max(3, ctx.repeats)
    threads = 2
    work = ctx.bench.work
    store = os.path.join(work, "versions.store")
    remove_stores(store)
    log(f"  versions: load R-MAT {scale} into dgap")
    ctx.bench.cli("ingest", store, "--input", edges, "--store-mode", "dgap", "--threads", threads)
    # The changes: edges of another R-MAT of the same vertices, as text lines for the stream.
    other = os.path.join(work, "versions.other.bin")
    ctx.bench.cli("generate", "rmat", "--scale", scale, "--edge-factor", 1, "--seed", 11, "-o", other)
    step = count // 100
    texts = []
    for k in range(2):
        part = os.path.join(work, f"versions.delta{k}.bin")
        ctx.bench.cli("convert", other, "-o", part, "--slice", f"{k * step}:{(k + 1) * step}")
        text = os.path.join(work, f"versions.delta{k}.txt")
        ctx.bench.cli("export", part, "-o", text)
        texts.append(text)
        os.remove(part)
    os.remove(other)
    errors = open(os.path.join(work, "versions.ingest.err"), "w+")
    ingest = subprocess.Popen([ctx.bench.graphso, "ingest", store, "--input", "-", "--threads", str(threads)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True)
    acknowledged = 0

    def send(text, expect):
        nonlocal acknowledged
        with open(text) as f:
            for line in f:
                if line[0].isdigit():
                    ingest.stdin.write(line)
        ingest.stdin.flush()
        while acknowledged < expect:
            line = ingest.stdout.readline()
            if not line:
                errors.seek(0)
                raise SystemExit(f"bench: the stream's ingest ended:\n{errors.read()}")
            if line.startswith("acknowledged "):
                acknowledged = int(line.split()[1])

    send(texts[0], step)
    v1 = count + step
    send(texts[1], 2 * step)
    v2 = count + 2 * step
    report = os.path.join(work, "versions.run.json")
    graph_mem = max(1 << 20, count)  # about a quarter of the store's packed pages (~4 bytes an edge)
    batch = ["bfs:source=0", "pagerank:iterations=10", "wcc"]

    def run(versions):
        jobs = []
        for v in versions:
            for job in batch:
                jobs += ["--job", job if v == v2 else f"{job}:version={v}"]
        ctx.bench.cli("run", store, *jobs, "--graph-mem", graph_mem, "--threads", threads, "--report", report)
        with open(report) as f:
            return json.load(f)

    runs = {"v2": [], "v1": [], "both": []}
    try:
        for k in range(repeats):
            order = ["v2", "v1", "both"] if k % 2 == 0 else ["both", "v1", "v2"]
            for which in order:
                log(f"  versions: {which} ({k + 1}/{repeats})")
                runs[which].append(run({"v2": [v2], "v1": [v1], "both": [v1, v2]}[which]))
    finally:
        ingest.stdin.close()
        ingest.wait()
        errors.close()
    for text in texts:
        os.remove(text)
    os.remove(store)

    def med(which, key):
        return statistics.median(r[key] for r in runs[which])

    def spread(which, key):
        values = [r[key] for r in runs[which]]
        return f"{min(values):.3f}-{max(values):.3f}"

    both, alone, older = med("both", "bytes_read"), med("v2", "bytes_read"), med("v1", "bytes_read")
    t_both, t_alone, t_older = med("both", "wall_seconds"), med("v2", "wall_seconds"), med("v1", "wall_seconds")
    last = runs["both"][-1]["store"]
    rows = [["v2 alone", f"{alone / 2**20:.1f}", f"{t_alone:.3f} ({spread('v2', 'wall_seconds')})",
             f"{med('v2', 'init_seconds'):.3f}", f"{statistics.median(r['store']['open_seconds'] for r in runs['v2']):.3f}"],
            ["v1 alone", f"{older / 2**20:.1f}", f"{t_older:.3f} ({spread('v1', 'wall_seconds')})",
             f"{med('v1', 'init_seconds'):.3f}", f"{statistics.median(r['store']['open_seconds'] for r in runs['v1']):.3f}"],
            ["v1 and v2 in one run", f"{both / 2**20:.1f}", f"{t_both:.3f} ({spread('both', 'wall_seconds')})",
             f"{med('both', 'init_seconds'):.3f}", f"{statistics.median(r['store']['open_seconds'] for r in runs['both']):.3f}"],
            ["**one run / v2 alone**", f"**{both / alone:.3f}x**", f"{t_both / t_alone:.2f}x", "", ""],
            ["**one run / the two alone**", f"{both / (alone + older):.3f}x", f"**{t_both / (t_alone + t_older):.2f}x**", "", ""]]
    md = table(["batch (BFS, PageRank x10, WCC)", "MiB read", "wall s (spread)", "Init s", "open s"], rows)
    md += (f"\n\nR-MAT {scale} ({count:,} edges) in dgap, checkpointed; then {step:,} edges (v1 = {v1:,}) and "
           f"{step:,} more (v2 = {v2:,}) through `ingest --input -`, which stays open, so both versions stay in the "
           f"log. One run over both: {last['pages_in_place']:,} pages in place shared by both versions, "
           f"{last['edges_inserted_apart']:,} logged insertions laid out apart ({last['insertion_pages']:,} pages), "
           f"{last['pages_rewritten']:,} pages rewritten. Graph-data budget {graph_mem / 2**20:.0f} MiB, chunk mode, "
           f"GridGraph engine, median of {repeats} alternated runs each. Target: bytes read for two versions <= 1.1x "
           f"one version's when <= 1% of the edges changed.")
    raw = {"scale": scale, "edges": count, "v1": v1, "v2": v2, "runs": runs}
    return raw, md + f"\n\n{threads} threads; commit {ctx.commit}", None


def exp_verify(ctx):
    """What verifying every read against its page checksum costs: each batch with --verify-reads on and
    off, alternated in one run, the median of each kept."""
    g = ctx.rmat()
    batches = [("I/O-bound: W1, budget 1/8", w1(g.source), g.info["edge_bytes"] // 8),
               ("CPU-bound: 4 x PageRank (10 iterations), budget 1/2", ["pagerank:iterations=10"] * 4,
                g.info["edge_bytes"] // 2)]
    # --quick checks that the comparison runs; its runs take hundredths of a second, too short to compare.
    repeats = ctx.repeats if ctx.args.quick else max(3, ctx.repeats)
    rows, raw = [], {}
    for name, jobs, budget in batches:
        for mode in ["independent", "partition", "chunk"]:
            runs = {"on": [], "off": []}
            for k in range(repeats):
                for setting in (["on", "off"] if k % 2 == 0 else ["off", "on"]):
                    # Synchronous rounds: on two threads asynchronous passes' frontiers, and so their
                    # bytes, depend on thread timing, and the two settings must read the same bytes.
                    r = ctx.bench.run(g.path, jobs, mode, budget, f"{g.name} {name} verify {setting}",
                                      ("--verify-reads", setting, "--async", "off"))
                    if "failed" in r:
                        raise SystemExit(f"bench: {name} {mode} --verify-reads {setting} failed: {r['failed']}")
                    runs[setting].append(r)
            on, off = median_run(runs["on"]), median_run(runs["off"])
            raw[f"{name} / {mode}"] = {"jobs": jobs, "budget": budget, "mode": mode, "on": on, "off": off}
            rows.append([name, mode, f"{on['wall_seconds']:.2f}", f"{off['wall_seconds']:.2f}",
                         f"**{on['wall_seconds'] / off['wall_seconds']:.3f}**",
                         f"{on['user_cpu_seconds']:.2f}", f"{off['user_cpu_seconds']:.2f}",
                         fmt_bytes(on["bytes_read"]), "yes" if on["bytes_read"] == off["bytes_read"] else "NO",
                         fmt_bytes(on["page_sums_bytes"])])
    md = table(["batch", "mode", "verified s", "unverified s", "time verified / unverified", "user CPU s verified",
                "user CPU s unverified", "bytes read", "same bytes", "page sums in memory"], rows)
    md += ("\n\nEvery page read is checked against its CRC-32C (SSE4.2, four pages at once) as its read lands, before "
           "any job sees it; `--verify-reads off` skips the check and exists only for this comparison. Each setting "
           f"ran {repeats} times, on and off alternated, the median kept. The target is < 5% on both batches.")
    return raw, md, None


def exp_encoding(ctx):
    """Packed edges against raw records: bytes per edge on every graph, and W1 in chunk mode with a budget
    of a quarter of the raw edge bytes (I/O-bound) and of five times them (CPU-bound: raw's chunks all stay in
    the cache, so both read the graph once), both encodings side by side in one run, alternated. Decode share = the threads' decoding time over the run's user CPU.
    A second table runs the packed graph again with --pass-over-pages off in the same rotation: what passing
    over pages with no source to push saves."""
    if ctx.args.quick:
        cases = [(ctx.rmat(), "natural"), (ctx.road(), "natural")]
    else:
        road = ctx.dataset("road-FLA-u.el.gz", True, "bfs", 0)
        cases = [(ctx.rmat(), "natural"), (road, "bfs@0"),
                 (ctx.dataset("soc-slashdot0902-d.el.gz", False), "natural"), (ctx.dataset("osm-rome.wel.gz", False), "natural")]
    rows, over_rows, raw_data = [], [], {}
    settings = {"packed": (), "raw": (), "decode all": ("--pass-over-pages", "off")}
    for g, order in cases:
        raw_path = g.path + "-raw"
        ctx.bench.prep(g.edges, raw_path, *(("bfs", 0) if order.startswith("bfs") else ("natural", None)), encoding="raw")
        raw_graph = Graph(g.name + " raw", raw_path, g.info, g.source)
        for batch, budget in [("I/O-bound", g.info["edge_bytes"] // 4), ("CPU-bound", 5 * g.info["edge_bytes"])]:
            runs = {name: [] for name in settings}
            for k in range(max(1, ctx.repeats)):
                names = list(settings)
                for name in names[k % len(names):] + names[:k % len(names)]:
                    graph = raw_graph if name == "raw" else g
                    runs[name].append(ctx.batch(graph, w1(g.source), "chunk", budget, f"{order} W1 {batch} {name}",
                                                settings[name], repeats=1))
            p, r, a = median_run(runs["packed"]), median_run(runs["raw"]), median_run(runs["decode all"])
            raw_data[f"{g.name} {order} {batch}"] = {"budget": budget, "packed": p, "raw": r, "packed, decode all": a}
            over_rows.append([f"{g.name} ({order})", batch, f"{p['edges_decoded']:,}", f"{a['edges_decoded']:,}",
                              f"**{p['edges_decoded'] / max(1, a['edges_decoded']):.3f}**",
                              f"{p['wall_seconds']:.2f}", f"{a['wall_seconds']:.2f}",
                              f"**{p['wall_seconds'] / a['wall_seconds']:.3f}**",
                              f"{p['user_cpu_seconds'] / max(a['user_cpu_seconds'], 1e-9):.3f}"])
            decoded_per_core = p["edges_decoded"] / p["decode_seconds"] if p["decode_seconds"] > 0 else 0
            rows.append([f"{g.name} ({order})", batch, f"{p['bytes_per_edge']:.2f}", f"{r['bytes_per_edge']:.2f}",
                         f"**{p['bytes_per_edge'] / r['bytes_per_edge']:.3f}**", fmt_bytes(p["bytes_read"]),
                         fmt_bytes(r["bytes_read"]), f"{p['bytes_read'] / max(1, r['bytes_read']):.3f}",
                         f"{p['wall_seconds']:.2f}", f"{r['wall_seconds']:.2f}",
                         f"**{p['wall_seconds'] / r['wall_seconds']:.3f}**",
                         f"{p['decode_seconds'] / max(p['user_cpu_seconds'], 1e-9):.3f}", f"{decoded_per_core / 1e6:.0f}"])
    md = table(["graph", "batch", "bytes/edge packed", "raw", "packed / raw", "bytes read packed", "raw",
                "packed / raw", "wall s packed", "raw", "time packed / raw", "decode share of CPU",
                "M edges decoded / s / core"], rows)
    md += ("\n\nW1 = delta-PageRank (tolerance 0.01), WCC, SSSP, BFS (paper Table 3), chunk mode, the graph's default "
           "chunk size; the budget is a quarter (I/O-bound) or five times (CPU-bound) the raw edge bytes, the same for "
           "both encodings. Targets (issue 15): bytes/edge packed / raw <= 0.6 on R-MAT, <= 0.35 on road-FLA in bfs "
           "order, <= 0.6 on soc-slashdot; I/O-bound time <= 0.7; CPU-bound time <= 1.05.")
    md += "\n\nPacked pages passed over (the default) against every page decoded (`--pass-over-pages off`), the same W1:\n\n"
    md += table(["graph", "batch", "edges decoded, passed over", "decode all", "ratio", "wall s, passed over",
                 "decode all", "time ratio", "user CPU ratio"], over_rows)
    return raw_data, md, None


# Issue 14's in-memory simulation of W1 (union-find WCC, sources 0, 64 KiB chunks, no cache): bytes
# loaded with asynchronous passes / synchronous rounds, and the targets for the measured ratio.
# Issue 14's in-memory simulation of W1 (bytes relative to synchronous chunk mode): its "async"
# column (passes only) and its "async + re-entry" column (at most 16 sweeps of a loaded chunk).
ASYNC_SIMULATED = {("road-FLA-u", "natural"): 0.85, ("road-FLA-u", "bfs@source"): 0.52,
                   ("osm-rome", "natural"): 0.47, ("osm-rome", "bfs@source"): 0.45,
                   ("soc-slashdot0902-d", "natural"): 0.52}
REENTRY_SIMULATED = {("road-FLA-u", "natural"): 0.46, ("road-FLA-u", "bfs@source"): 0.32,
                     ("osm-rome", "natural"): 0.36, ("osm-rome", "bfs@source"): 0.10,
                     ("soc-slashdot0902-d", "natural"): 0.50}
# Issue 14's targets for --async on (re-entry included) / off, bytes read.
ASYNC_TARGETS = {("road-FLA-u", "bfs@source"): 0.5, ("osm-rome", "bfs@source"): 0.3,
                 ("soc-slashdot0902-d", "natural"): 0.7}
# run settings: synchronous rounds; asynchronous passes alone; with re-entry (GridGraph's default;
# given, since X-Stream's default is none); with re-entry without the cutoff on wasteful sweeps;
# with re-entry and the late join; the same in source order within a pass.
REENTRY = ("--reentry", "16")
ASYNC_SETTINGS = {"off": ("--async", "off"), "passes": ("--async", "on", "--reentry", "0"), "on": ("--async", "on") + REENTRY,
                  "uncut": ("--async", "on", "--reentry-cutoff", "0", "--reentry-edge-cutoff", "0") + REENTRY,
                  "late": ("--async", "on", "--late-join", "on") + REENTRY,
                  "source": ("--async", "on", "--late-join", "on", "--pass-order", "source") + REENTRY}


def exp_async(ctx):
    """Asynchronous passes and re-entry (run --async on, the default) against synchronous rounds
    (--async off), with passes alone (--reentry 0) between them, and the late join on top
    (--late-join on), in the default (destination) and in source order (--pass-order source): W1
    from vertex 0 in chunk mode, budget 1/4 of the edge bytes, both engines, the real graphs in
    natural and BFS order (rooted at the source) and R-MAT; in --quick, the generated road grid
    and R-MAT 14."""
    if ctx.args.quick:
        side = QUICK_ROAD_SIDE
        road = lambda order, root: ctx.ordered(f"road grid {side}x{side}", f"road{side}", lambda: ctx.bench.road_edges(side),
                                               order, root)
        cases = [(road("natural", None), "natural"), (road("bfs", 0), "bfs@source"), (ctx.rmat(), "natural")]
    else:
        cases = [(ctx.dataset(f, sym, order, root), label) for f, sym in ORDER_GRAPHS[:3]
                 for label, order, root in [("natural", "natural", None), ("bfs@source", "bfs", 0)]]
        cases += [(ctx.rmat(), "natural")]
    steps = [s for s in ASYNC_SETTINGS if s != "off"]
    rows, raw, plot_rows = [], {}, []
    for g, order in cases:
        jobs = w1(0)
        budget = quarter(g)
        for engine in ["gridgraph", "xstream"]:
            # X-Stream's update budget comes on top (as in the engines experiment), so both settings
            # have the same edge budget.
            updates = max(budget // 4, 256 << 10)
            extra = ("--engine", engine, "--chunk-size", order_chunk(ctx)) + (("--update-mem", updates) if engine == "xstream" else ())
            mem = budget + (updates if engine == "xstream" else 0)
            runs = {setting: ctx.batch(g, jobs, "chunk", mem, f"{order} {engine} async {setting}", extra + flags)
                    for setting, flags in ASYNC_SETTINGS.items()}
            off = runs["off"]
            key = (g.name, order)
            ratio = {f"{what} {s}": runs[s][field] / off[field] for s in steps
                     for what, field in [("bytes", "bytes_read"), ("seconds", "wall_seconds")]}
            ratio["bytes"], ratio["seconds"] = ratio["bytes on"], ratio["seconds on"]
            raw[f"{g.name} / {order} / {engine}"] = {"graph": g.info, "order": order, "engine": engine, "jobs": jobs,
                                                      "budget": budget, "ratio": ratio, "target": ASYNC_TARGETS.get(key),
                                                      "simulated": ASYNC_SIMULATED.get(key),
                                                      "simulated_reentry": REENTRY_SIMULATED.get(key), "runs": runs}
            passes = lambda r: "/".join(str(j["iterations"]) for j in r["jobs"])
            cell = lambda x: "-" if x is None else f"{x:.2f}"
            rows.append([g.name, order, engine, passes(off), passes(runs["passes"]), passes(runs["on"]), passes(runs["late"]),
                         fmt_bytes(off["bytes_read"]),
                         f"{ratio['bytes passes']:.3f}", cell(ASYNC_SIMULATED.get(key)),
                         f"**{ratio['bytes on']:.3f}**", cell(REENTRY_SIMULATED.get(key)), f"{ratio['bytes uncut']:.3f}",
                         f"{ratio['bytes late']:.3f}", f"{ratio['bytes source']:.3f}", cell(ASYNC_TARGETS.get(key)),
                         f"{off['wall_seconds']:.2f}", f"{ratio['seconds passes']:.3f}", f"**{ratio['seconds on']:.3f}**", f"{ratio['seconds uncut']:.3f}",
                         f"{ratio['seconds late']:.3f}", f"{ratio['seconds source']:.3f}",
                         str(runs["on"]["reentries"]), str(runs["late"]["late_chunks"])])
            short = g.name.replace("soc-slashdot0902-d", "slashdot").replace("-u", "")
            plot_rows.append({"graph": f"{short} {order}\n{engine}",
                              "variants": {"bytes, passes": ratio["bytes passes"], "bytes, + re-entry": ratio["bytes on"],
                                           "bytes, + late join": ratio["bytes late"],
                                           "time, passes": ratio["seconds passes"], "time, + re-entry": ratio["seconds on"],
                                           "time, + late join": ratio["seconds late"]}})
    workloads, workload_rows, workload_plot = async_workloads(ctx, cases, raw)
    md = table(["graph", "order", "engine", "rounds off (pr/wcc/sssp/bfs)", "passes (--reentry 0)", "passes on",
                "passes + late join", "bytes off", "bytes passes / off", "simulated", "bytes on / off", "simulated",
                "no cutoff / off", "+ late join / off", "+ late join, source order", "target", "seconds off", "time passes / off",
                "time on / off", "no cutoff / off", "+ late join / off", "+ late join, source order", "re-entry sweeps", "late chunks"], rows)
    md += ("\n\nW1 = delta-PageRank 0.01, union-find WCC, SSSP and BFS from vertex 0; chunk mode, budget 1/4 of the edge "
           "bytes. `off` is synchronous rounds (`--async off`); `passes` runs BFS, SSSP and delta-PageRank in "
           "asynchronous passes alone (`--reentry 0`); `on` forces passes and re-entry (each loaded logical "
           "partition swept again in memory, at most 16 times, while a job has work wholly inside it, and left by a job "
           "whose sweep is wasteful; `no cutoff` is `--reentry-cutoff 0 --reentry-edge-cutoff 0`); `+ late join` "
           "adds `--late-join on` (chunks an asynchronous job reaches during a pass join that pass), in the default "
           "(destination) order and with `--pass-order source`. Union-find WCC is one pass either way. The simulated columns are issue 14's (no cache; 64 KiB chunks in source order, one thread).")
    md += ("\n\nEvery workload of paper Table 3 (W1 as above; W2-W8 from sources s1 = 0 and s2 = the middle vertex, "
           "and their successors) and k-core alone, `--async on` (passes and re-entry) against `off`, "
           "bytes / time. k-core runs asynchronously only on a graph prep found symmetric; elsewhere both runs are "
           "synchronous and the ratio is noise.\n\n")
    md += table(["graph", "order", "engine"] + workloads, workload_rows)
    setting = (f"W1-W8 and k-core, chunk mode, {order_chunk(ctx)} chunks, budget 1/4 of each graph's edge bytes; "
               f"{ctx.threads} threads; commit {ctx.commit}")
    return raw, md, lambda path: plots.asynchronous(plot_rows, workload_plot, setting, path)


# The workloads of the async experiment's second table: paper Table 3's W1-W8 and k-core alone.
ASYNC_WORKLOADS = [f"W{w}" for w in range(1, 9)] + ["kcore"]


def async_workloads(ctx, cases, raw):
    """W1-W8 and k-core with --async on vs off in chunk mode, both engines, the async experiment's
    graphs; in --quick W1, W5 and k-core on the road grid in BFS order (the others' synchronous
    rounds would double `make test`'s bench time). W1's runs are the experiment's own (in raw).
    Adds each run pair to raw; returns the workloads, the table's rows and the plot's."""
    rows, plot_rows = [], []
    workloads = ["W1", "W5", "kcore"] if ctx.args.quick else ASYNC_WORKLOADS
    for g, order in (cases[1:2] if ctx.args.quick else cases):
        s1, s2 = 0, g.info["vertices"] // 2
        budget = quarter(g)
        for engine in ["gridgraph", "xstream"]:
            updates = max(budget // 4, 256 << 10)
            extra = ("--engine", engine, "--chunk-size", order_chunk(ctx)) + (("--update-mem", updates) if engine == "xstream" else ())
            mem = budget + (updates if engine == "xstream" else 0)
            cells, ratios = [], {}
            for w in workloads:
                if w == "W1":
                    runs = raw[f"{g.name} / {order} / {engine}"]["runs"]
                    on, off = runs["on"], runs["off"]
                else:
                    jobs = ["kcore"] if w == "kcore" else workload(int(w[1:]), s1, s2)
                    on, off = [ctx.batch(g, jobs, "chunk", mem, f"{order} {engine} {w} async {a}", extra + ("--async", a))
                               for a in ["on", "off"]]
                    raw[f"{g.name} / {order} / {engine} / {w}"] = {"graph": g.info, "order": order, "engine": engine,
                                                                   "workload": w, "jobs": jobs, "budget": budget,
                                                                   "runs": {"on": on, "off": off}}
                ratios[w] = (on["bytes_read"] / off["bytes_read"], on["wall_seconds"] / off["wall_seconds"])
                cells.append(f"{ratios[w][0]:.3f} / {ratios[w][1]:.3f}")
            rows.append([g.name, order, engine] + cells)
            short = g.name.replace("soc-slashdot0902-d", "slashdot").replace("-u", "")
            plot_rows.append({"graph": f"{short} {order}\n{engine}", "bytes": {w: r[0] for w, r in ratios.items()},
                              "seconds": {w: r[1] for w, r in ratios.items()}})
    return workloads, rows, plot_rows


# GridGraph on R-MAT 22 (67 M edges), O_DIRECT, same grid, budget above the graph, 2 / 1 threads:
# measured once from its repository (issue 18), quoted beside graphso's figures measured in the run.
GRIDGRAPH_R22 = {"bfs": (0.69, 1.19), "pagerank x20": (10.75, 16.86), "ns_per_edge_pr_1_thread": 12.0}


def exp_cpu(ctx):
    """The engine's CPU cost with I/O out of the way: a budget twice the graph, BFS and PageRank,
    every mode on 1 and 2 threads; cores used = user CPU / wall, ns per edge = user CPU / edges.
    --quick runs it on R-MAT 17, not 14: the kernel splits a process's CPU time into user and system
    by timer ticks, so a run of a few milliseconds (R-MAT 14) can be reported with no user CPU."""
    g = ctx.rmat(max(ctx.args.scale, 17))
    iterations = 3 if ctx.args.quick else 20
    batches = [("bfs", [f"bfs:source={g.source}"]), (f"pagerank x{iterations}", [f"pagerank:iterations={iterations}"])]
    budget = 2 * g.info["edge_bytes"]
    rows, cut_rows, raw = [], [], {}
    for name, jobs in batches:
        for mode in ["independent", "partition", "chunk"]:
            for threads in [2, 1]:
                r = ctx.batch(g, jobs, mode, budget, f"{name} {threads} threads", threads=threads)
                cores = r["user_cpu_seconds"] / r["process_seconds"]
                ns = r["user_cpu_seconds"] * 1e9 / max(1, r["edges_processed"])
                raw[f"{name} / {mode} / {threads}"] = dict(r, cores_used=cores, ns_per_edge=ns, threads=threads)
                rows.append([name, mode, threads, f"{r['wall_seconds']:.2f}", f"{r['user_cpu_seconds']:.2f}",
                             f"{cores:.2f}", f"{ns:.1f}", fmt_bytes(r["bytes_read"])])
                if name == "bfs" and threads == 2:
                    # Re-entry's cutoff on wasteful sweeps, right after the same run with it: on R-MAT
                    # few changed sources have all their out-edges in one block, so uncut sweeps
                    # decode loads again for little.
                    off = ctx.batch(g, jobs, mode, budget, f"{name} {threads} threads", ("--reentry-cutoff", "0", "--reentry-edge-cutoff", "0"),
                                    threads=threads)
                    raw[f"bfs / {mode} / 2 / no cutoff"] = off
                    cut_rows.append([mode, f"{r['wall_seconds']:.2f}", f"{off['wall_seconds']:.2f}",
                                     f"**{r['wall_seconds'] / off['wall_seconds']:.2f}**",
                                     f"{r['edges_decoded'] / max(1, off['edges_decoded']):.2f}", str(r["reentries"]),
                                     str(off["reentries"])])
    md = table(["batch", "mode", "threads", "wall s", "user CPU s", "cores used", "ns per edge (user CPU)",
                "bytes read"], rows)
    md += (f"\n\nBudget twice the edge bytes, O_DIRECT. Cores used counts OpenMP's spinning as well as work. "
           f"GridGraph, built from its repository, on R-MAT 22 (67 M edges) at its budget above the graph: BFS "
           f"{GRIDGRAPH_R22['bfs'][0]} s on 2 threads / {GRIDGRAPH_R22['bfs'][1]} s on 1, PageRank x20 "
           f"{GRIDGRAPH_R22['pagerank x20'][0]} / {GRIDGRAPH_R22['pagerank x20'][1]} s, "
           f"{GRIDGRAPH_R22['ns_per_edge_pr_1_thread']} ns per edge on one thread (quoted, not run here; compare "
           f"at --scale 22).")
    md += "\n\nBFS on 2 threads, re-entry's cutoffs on wasteful sweeps on (the default) vs `--reentry-cutoff 0 --reentry-edge-cutoff 0`:\n\n"
    md += table(["mode", "wall s, cutoff", "wall s, no cutoff", "wall cutoff / none", "edges decoded cutoff / none",
                 "sweeps, cutoff", "sweeps, none"], cut_rows)
    return raw, md, None


def exp_defaults(ctx):
    """What `run` does without --sharing, for one job: each job alone in the three modes, the modes
    alternated within each repetition (at least three), median and range of wall time."""
    modes = ["independent", "partition", "chunk"]
    rows, raw = [], []
    for g in [ctx.rmat(), ctx.road()]:
        budget = quarter(g)
        for job in [f"bfs:source={g.source}", f"sssp:source={g.source}", "wcc", "pagerank:iterations=5",
                    "pagerank-delta:tolerance=0.01"]:
            runs = alternated(ctx, [(g.path, [job], m, budget, f"{g.name} {job}", ()) for m in modes],
                              max(3, ctx.repeats))
            times, last = dict(zip(modes, runs[0])), dict(zip(modes, runs[1]))
            median = {m: statistics.median(times[m]) for m in modes}
            raw.append({"graph": g.name, "job": job, "seconds": times,
                        "bytes_read": {m: last[m]["bytes_read"] for m in modes}})
            rows.append([g.name, job] + [f"{median[m]:.3f} ({min(times[m]):.3f}-{max(times[m]):.3f}), "
                                          f"{fmt_bytes(last[m]['bytes_read'])}" for m in modes] +
                        [f"{median['chunk'] / median['partition']:.2f}" if median["partition"] > 0 else "-"])
    md = ("Each job alone, graph-data budget a quarter of the graph's edge bytes; seconds are the median (range) of "
          "the repetitions, the modes alternated within each. `run` without --sharing runs chunk mode "
          "(docs/commands.md, \"The default sharing mode\").\n\n" +
          table(["graph", "job", "independent", "partition", "chunk", "chunk / partition"], rows))
    return {"setting": f"{ctx.threads} threads; commit {ctx.commit}", "jobs": raw}, md, None


def w1_pr20(source):
    """W1 with fixed-iteration PageRank x20 in place of delta-PageRank (every vertex active every round)."""
    return ["pagerank:iterations=20", "wcc", f"sssp:source={source}", f"bfs:source={source}"]


SETTINGS = [("default", "chunk", ()), ("async on", "chunk", ("--async", "on")), ("async off", "chunk", ("--async", "off")),
            ("default", "partition", ()), ("async on", "partition", ("--async", "on")),
            ("async off", "partition", ("--async", "off")), ("default", "independent", ()),
            ("xstream", "chunk", ("--engine", "xstream")), ("xstream", "partition", ("--engine", "xstream")),
            ("raw", "chunk", ()), ("raw", "partition", ())]


def exp_settings(ctx):
    """The paper's W1 on a power-law graph: graphso's defaults (run without options but --graph-mem) against every
    setting a user can force (--async on|off, the three sharing modes, the X-Stream engine, raw records instead of
    packed edges), and W1 with PageRank x20 in chunk and partition mode; the settings alternated within each
    repetition (at least three), median wall time kept."""
    if ctx.args.quick:
        cases = [(ctx.rmat(), "1/6 of the edge bytes", 6), (ctx.road(), "1/4 of the edge bytes", 4)]
    else:
        cases = [(ctx.rmat(max(ctx.args.scale, 22)), "1/6 of the edge bytes (R-MAT 22: 128 MB)", 6),
                 (ctx.dataset("ego-twitter-u.el.gz", True), "1/8 of the edge bytes", 8)]
    repeats = 1 if ctx.args.quick else max(3, ctx.repeats)  # --quick: that every setting runs, not its time
    raw, rows, ratio_rows = [], [], []
    for g, budget_text, fraction in cases:
        budget = g.info["edge_bytes"] // fraction
        raw_path = g.path + "-raw"
        ctx.bench.prep(g.edges, raw_path, encoding="raw")
        batches = [(f"W1 {label}", mode, extra, w1(g.source), raw_path if label == "raw" else g.path)
                   for label, mode, extra in SETTINGS]
        batches += [("W1 PRx20 default", mode, (), w1_pr20(g.source), g.path) for mode in ["chunk", "partition"]]
        times, last = alternated(ctx, [(path, jobs, mode, budget, f"{g.name} {label}", extra)
                                       for label, mode, extra, jobs, path in batches], repeats)
        median = {i: statistics.median(t) for i, t in enumerate(times)}
        key = {(label, mode): i for i, (label, mode, *_rest) in enumerate(batches)}
        for i, (label, mode, extra, jobs, path) in enumerate(batches):
            r = last[i]
            cores = r["user_cpu_seconds"] / r["process_seconds"] if r["process_seconds"] > 0 else 0
            ns_per_edge = r["user_cpu_seconds"] * 1e9 / max(r["edges_processed"], 1)
            disk_share = r["bytes_read"] / median[i] / ctx.disk if median[i] > 0 else 0
            rows.append([g.name, label, mode, f"{median[i]:.2f} ({min(times[i]):.2f}-{max(times[i]):.2f})",
                         fmt_bytes(r["bytes_read"]), f"{r['active_edge_ratio']:.3f}", f"{cores:.2f}",
                         f"{disk_share:.2f}", f"{ns_per_edge:.2f}",
                         ", ".join(f"{j['name']}:{j['iterations']}" + (f" (rounds from {j['sync_from_round']})"
                                                                         if j.get("sync_from_round") else "")
                                   for j in r["jobs"])])
            raw.append({"graph": g.name, "budget": budget, "label": label, "mode": mode, "extra": list(extra),
                        "jobs": jobs, "seconds": times[i], "report": r})

        def t(label, mode):
            return median[key[(label, mode)]]

        def b(label, mode):
            return last[key[(label, mode)]]["bytes_read"]

        for mode in ["chunk", "partition"]:
            best = min(t("W1 async on", mode), t("W1 async off", mode))
            ratio_rows.append([g.name, f"W1 default / best of --async on, off ({mode})", f"{t('W1 default', mode) / best:.3f}",
                               "<= 1.05"])
        ratio_rows.append([g.name, "W1 chunk / partition time (defaults)",
                           f"{t('W1 default', 'chunk') / t('W1 default', 'partition'):.3f}", "<= 0.7 (never > 1.05)"])
        ratio_rows.append([g.name, "W1 chunk / partition bytes (defaults)",
                           f"{b('W1 default', 'chunk') / b('W1 default', 'partition'):.3f}", "<= 0.6"])
        for mode in ["chunk", "partition"]:
            ratio_rows.append([g.name, f"W1 X-Stream / GridGraph time ({mode})",
                               f"{t('W1 xstream', mode) / t('W1 default', mode):.3f}", "<= 2"])
            ratio_rows.append([g.name, f"W1 raw / packed time ({mode})",
                               f"{t('W1 raw', mode) / t('W1 default', mode):.3f}", "-"])
        ratio_rows.append([g.name, "W1 PRx20 chunk / partition time",
                           f"{t('W1 PRx20 default', 'chunk') / t('W1 PRx20 default', 'partition'):.3f}", "<= 1.05"])
    md = ("Wall seconds are the median (range) of the repetitions, every setting alternated within each; bytes, "
          "active-edge ratio, cores (user CPU / wall) and ns per edge (user CPU / edges processed, one core's time) "
          "from the last repetition; of disk = bytes read / median seconds / the disk's sequential bandwidth "
          "measured in this run. Jobs: iterations each, and the round an `--async auto` delta job fell back to "
          "synchronous rounds from.\n\n" +
          table(["graph", "batch", "mode", "seconds", "bytes read", "active-edge ratio", "cores", "of disk",
                 "ns per edge", "jobs"], rows) + "\n\n" + table(["graph", "ratio", "measured", "issue 51's target"],
                                                                   ratio_rows))
    setting = (f"{'; '.join(f'{g.name} at {text}' for g, text, _ in cases)}; chunk size the graph's default; "
               f"{ctx.threads} threads; {repeats} repetitions; commit {ctx.commit}")
    return {"setting": setting, "runs": raw, "ratios": ratio_rows}, md, None


SWEEP_SETTINGS = [("default", "chunk", ()), ("async on", "chunk", ("--async", "on")),
                  ("async off", "chunk", ("--async", "off")), ("default", "partition", ())]


def sweep_graphs(ctx):
    """Every graph of the bench: R-MAT at --scale, road-FLA and the real graphs (in --quick R-MAT and the
    generated road grid)."""
    if ctx.args.quick:
        return [ctx.rmat(), ctx.road()]
    return [ctx.rmat(), ctx.road()] + [ctx.dataset(f, sym) for f, sym in ORDER_GRAPHS[1:]]


def exp_sweep(ctx):
    """Issue 51's two rules over every bench graph and workload (W1-W8, k-core): graphso's default
    (`--async auto`) against the best of --async on and off in chunk mode, and chunk mode against
    partition mode (defaults); the four settings alternated within each repetition (at least three;
    one in --quick), median wall time kept. Budget a quarter of each graph's edge bytes."""
    workloads = ["W1", "W5", "kcore"] if ctx.args.quick else ASYNC_WORKLOADS
    repeats = 1 if ctx.args.quick else max(3, ctx.repeats)
    rows, raw = [], []
    worst = {"default / best": (0, ""), "chunk / partition": (0, "")}
    for g in sweep_graphs(ctx):
        s1, s2 = g.source, g.info["vertices"] // 2
        budget = quarter(g)
        for w in workloads:
            jobs = ["kcore"] if w == "kcore" else workload(int(w[1:]), s1, s2)
            times, last = alternated(ctx, [(g.path, jobs, mode, budget, f"{g.name} {w} {label}", extra)
                                           for label, mode, extra in SWEEP_SETTINGS], repeats)
            t = [statistics.median(x) for x in times]
            default_best = t[0] / min(t[1], t[2])
            chunk_partition = t[0] / t[3]
            bytes_ratio = last[0]["bytes_read"] / last[3]["bytes_read"] if last[3]["bytes_read"] else 0
            where = f"{g.name} {w}"
            for name, value in [("default / best", default_best), ("chunk / partition", chunk_partition)]:
                if value > worst[name][0]:
                    worst[name] = (value, where)
            fell_back = [f"{j['name']}:{j['sync_from_round']}" for j in last[0]["jobs"] if j.get("sync_from_round")]
            rows.append([g.name, w] + [f"{t[i]:.2f} ({min(times[i]):.2f}-{max(times[i]):.2f})" for i in range(4)] +
                        [f"**{default_best:.3f}**", f"**{chunk_partition:.3f}**", f"{bytes_ratio:.3f}",
                         ", ".join(fell_back) or "-"])
            raw.append({"graph": g.name, "workload": w, "jobs": jobs, "budget": budget,
                        "seconds": {f"{label} {mode}": times[i] for i, (label, mode, _) in enumerate(SWEEP_SETTINGS)},
                        "runs": {f"{label} {mode}": last[i] for i, (label, mode, _) in enumerate(SWEEP_SETTINGS)},
                        "default_over_best": default_best, "chunk_over_partition": chunk_partition,
                        "bytes_chunk_over_partition": bytes_ratio})
    md = ("Seconds: median (range) of the repetitions, the four settings alternated within each. default / best = "
          "chunk mode's default (`--async auto`) over the faster of `--async on` and `--async off` (target <= 1.05); "
          "chunk / partition = the defaults in the two modes (target <= 1.05), bytes beside it. Fell back: the round "
          "from which a delta job of the default ran synchronously.\n\n" +
          table(["graph", "workload", "chunk default s", "chunk --async on s", "chunk --async off s",
                 "partition default s", "default / best", "chunk / partition", "bytes chunk / partition",
                 "fell back (job:round)"], rows) +
          "\n\nWorst: " + "; ".join(f"{name} {v:.3f} ({where})" for name, (v, where) in worst.items()) + ".")
    setting = f"budget 1/4 of each graph's edge bytes; {ctx.threads} threads; {repeats} repetitions; commit {ctx.commit}"
    return {"setting": setting, "rows": raw, "worst": {k: {"ratio": v, "where": w} for k, (v, w) in worst.items()}}, md, None


def exp_store_insert(ctx):
    """FTGraph's claim against XPGraph, measured: insert throughput and bytes persisted per edge of
    the in-place tree store (ftgraph) and the subpage store (gear) against the logged ones (xpgraph,
    dgap). R-MAT at
    max(--scale, 20): a 10% load, then the other 90% inserted, 2 threads; the same insert with 10%
    repeats of earlier edges (`convert --repeat 0.1`: set semantics finds them and writes nothing);
    at the ingest's batch (65,536) and at FTGraph's (1,048,576). The store file on the bench's disk
    (the PMEM tier: every persist is a pmem_msync of the dirty pages), and on tmpfs (/dev/shm,
    where a persist writes nothing: what is left is the CPU and memory cost). Modes alternated
    (A B C, C B A, ...), median of the repeats."""
    quick = ctx.args.quick
    edges, scale, _, count = store_rmat(ctx)
    repeats = 1 if quick else max(3, ctx.repeats)
    threads = 2
    work = ctx.bench.work
    stem = os.path.join(work, "insert")
    load, insert = f"{stem}.load.bin", f"{stem}.insert.bin"
    ctx.bench.cli("convert", edges, "-o", load, "--slice", f"0:{count // 10}")
    ctx.bench.cli("convert", edges, "-o", insert, "--slice", f"{count // 10}:{count}")
    ctx.bench.cli("convert", insert, "-o", f"{stem}.repeats.bin", "--repeat", "0.1")
    inputs = [("R-MAT insert", insert), ("with 10% repeats", f"{stem}.repeats.bin")]
    shm = "/dev/shm"
    tiers = [("disk", work)] + ([("tmpfs", shm)] if os.path.isdir(shm) and not quick else [])
    modes = ["xpgraph", "dgap", "gear", "ftgraph"]
    batches = [65536] if quick else [65536, 1 << 20]
    raw, rows = [], []

    def one(tier_dir, mode, path, batch):
        store = os.path.join(tier_dir, f"graphso-bench-insert.{mode}.store")
        report = os.path.join(work, "insert.json")
        remove_stores(store)
        try:
            ctx.bench.cli("ingest", store, "--input", load, "--store-mode", mode, "--threads", threads,
                          "--expect-edges", count * 12 // 10)
            ctx.bench.cli("ingest", store, "--input", path, "--threads", threads, "--batch", batch, "--report", report)
        finally:
            if os.path.exists(store):
                os.remove(store)
        with open(report) as f:
            return json.load(f)

    for tier, tier_dir in tiers:
        for batch in batches:
            for name, path in inputs:
                if tier == "tmpfs" and batch != 65536:
                    continue
                got = {m: [] for m in modes}
                for rep in range(repeats):
                    for mode in (modes if rep % 2 == 0 else list(reversed(modes))):
                        log(f"  insert: {tier}, batch {batch}, {name}: {mode} (repeat {rep + 1})")
                        got[mode].append(one(tier_dir, mode, path, batch))
                med = {}
                for mode in modes:
                    rs = sorted(got[mode], key=lambda r: r["edges_per_second"])
                    med[mode] = rs[len(rs) // 2]
                    r = med[mode]
                    rate = [x["edges_per_second"] / 1e6 for x in rs]
                    rows.append([tier, f"{batch:,}", name, mode,
                                 f"{r['edges_per_second'] / 1e6:.2f} M ({min(rate):.2f}-{max(rate):.2f})",
                                 f"{r['line_bytes_per_edge']:.1f}", f"{r['persisted_bytes'] / r['edges']:.1f}",
                                 fmt_bytes(r["device_write_bytes"]), f"{r.get('duplicates', '')}"])
                x = med["xpgraph"]
                for mode in ("ftgraph", "gear", "dgap"):
                    m = med[mode]
                    rows.append([tier, f"{batch:,}", name, f"**{mode} / xpgraph**",
                                 f"**{m['edges_per_second'] / x['edges_per_second']:.3f}x**",
                                 f"**{m['line_bytes_per_edge'] / x['line_bytes_per_edge']:.2f}x**",
                                 f"**{(m['persisted_bytes'] / m['edges']) / (x['persisted_bytes'] / x['edges']):.2f}x**",
                                 "", ""])
                raw.append({"tier": tier, "batch": batch, "input": name, "runs": got})
    md = table(["PMEM tier", "batch", "input", "store mode", "insert edges/s (range)", "persisted bytes/edge (256-B lines)",
                "persisted bytes/edge (exact)", "device writes", "duplicates found"], rows)
    md += ("\n\nR-MAT scale " + str(scale) + f": {count:,} edges; 10% loaded first, then the rest inserted by one `ingest` "
           "(2 threads) whose report gives the rate and what it persisted. ftgraph checks every insert against its tree "
           "(set semantics): its duplicate checks per second are its insert rate. The targets of issue 47: ftgraph >= "
           "1.5x xpgraph's insert rate and <= 0.6x its persisted bytes per edge.")
    return raw, md + f"\n\n{threads} threads, {repeats} repeats alternated; commit {ctx.commit}", None


RUNNERS = {"spark": exp_spark, "graphalytics": exp_graphalytics, "inmemory": exp_inmemory, "many_jobs": exp_many_jobs, "limit": exp_limit, "modes": exp_modes, "workloads": exp_workloads, "cache": exp_cache,
           "chunk_size": exp_chunk_size, "concurrency": exp_concurrency, "arrivals": exp_arrivals,
           "budgets": exp_budgets, "orders": exp_orders, "engines": exp_engines, "memory": exp_memory,
           "store": exp_store, "evolving": exp_evolving, "evolving_steps": exp_evolving_steps, "store_growth": exp_store_growth, "evolving_stream": exp_evolving_stream, "evolving_versions": exp_evolving_versions, "store_insert": exp_store_insert, "verify": exp_verify, "cpu": exp_cpu, "async": exp_async, "encoding": exp_encoding, "sweep": exp_sweep,
           "defaults": exp_defaults, "settings": exp_settings}
TITLES = {"limit": "The physical limit: the disk, and each job alone", "modes": "1. Batch W1 in the three sharing modes",
          "workloads": "2. Workloads W1-W8, chunk vs partition", "cache": "3. The chunk cache",
          "chunk_size": "4. Chunk size", "concurrency": "5. Number of concurrent jobs",
          "arrivals": "6. Staggered arrivals", "budgets": "7. Memory budgets",
          "orders": "8. Vertex orders and read granularity", "engines": "9. Both engines: GridGraph and X-Stream",
          "memory": "10. Memory: peak RSS against the budget",
          "store": "11. The evolving-graph store: XPGraph ingest vs the naive baseline",
          "evolving": "11b. Evolving graphs: every store mode, jobs on the live store",
          "evolving_steps": "11c. Evolving in many small steps: gear's placement against chained blocks, and wear",
          "store_growth": "11e. A store that grows: created from one edge, fed R-MAT in 1,000 steps with no sizing option (issue 64)",
          "evolving_stream": "11f. A stream: 100-edge writes through a pipe in group commits against one file ingest, and ingest beside jobs (issue 64)",
          "evolving_versions": "11g. Jobs at two versions of a live store in one batch: shared pages, the logged tail apart (issue 65)",
          "store_insert": "11d. Inserting in place (ftgraph) against logging (xpgraph, dgap): rate and persisted bytes",
          "verify": "12. Verified reads: what checking every page costs",
          "cpu": "13. CPU: cores used and nanoseconds per edge, every mode, 1 and 2 threads",
          "async": "14. Asynchronous passes, re-entry and the late join: bytes and time, --async on vs off",
          "encoding": "15. Packed edges against raw records: bytes per edge, I/O-bound and CPU-bound W1",
          "defaults": "16. One job alone in each sharing mode: run's default",
          "settings": "17. The paper's W1 on power-law graphs: the defaults against every forced setting (issue 51)",
          "sweep": "18. Every graph and workload: the default against forced --async, chunk against partition (issue 51)",
          "many_jobs": "19. Many jobs: grouped BFS, SSSP and PageRank against one job alone and against jobs on their own (issue 63)",
          "inmemory": "20. A graph that fits: resident chunks against packed ones and against textbook in-memory kernels (issue 68)",
          "graphalytics": "21. LDBC Graphalytics' driver on R-MAT 22: Tl, Tp, Tm and EVPS per algorithm, and one batch (issue 66)",
          "spark": "22. The same job file on Spark: GraphX and DataFrame back ends against graphso (issue 67)"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graphso", default=os.path.join(REPO, "build", "graphso"))
    parser.add_argument("--textbook", default=None, help="the textbook kernels' binary (default: beside --graphso)")
    parser.add_argument("--scale", type=int, default=18, help="R-MAT scale (2^scale vertices, 16x edges)")
    parser.add_argument("--quick", action="store_true", help="small generated graphs, every experiment, under a minute")
    parser.add_argument("--work", default=os.path.join(REPO, "bench", "work"))
    parser.add_argument("--out", default=os.path.join(REPO, "bench", "out"))
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=1, help="runs per setting; the median time is kept")
    parser.add_argument("--only", default=",".join(EXPERIMENTS), help="experiments to run (comma-separated)")
    args = parser.parse_args()
    if args.quick:
        args.scale = min(args.scale, 14)
    wanted = args.only.split(",")
    for name in wanted:
        if name not in RUNNERS:
            parser.error(f"unknown experiment '{name}' (known: {', '.join(EXPERIMENTS)})")
    bench = Bench(args)
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    ctx = Context(bench, args, commit)
    started = time.time()
    ctx.disk = bench.disk_bandwidth(64 if args.quick else 1024)
    log(f"disk: {ctx.disk / 1e9:.2f} GB/s sequential O_DIRECT")
    results = {"commit": commit, "scale": args.scale, "threads": ctx.threads, "quick": args.quick,
               "repeats": args.repeats, "disk_bytes_per_second": ctx.disk,
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "experiments": {}}
    summary = [f"# graphso benchmark\n\ncommit {commit}, {ctx.threads} threads, {results['date']}, "
               f"{'quick run' if args.quick else f'R-MAT scale {args.scale}'}; disk {ctx.disk / 1e9:.2f} GB/s "
               f"sequential O_DIRECT, measured in this run. Each setting run {args.repeats} time(s), median kept.\n"]

    def save():
        results["seconds"] = time.time() - started
        with open(os.path.join(bench.out, "results.json"), "w") as f:
            json.dump(results, f, indent=2)
        with open(os.path.join(bench.out, "summary.md"), "w") as f:
            f.write("\n".join(summary))

    for name in EXPERIMENTS:
        if name not in wanted:
            continue
        log(f"== {TITLES[name]}")
        t = time.time()
        raw, md, plot = RUNNERS[name](ctx)
        figure = None
        if plot:
            figure = f"{name}.png"
            plot(os.path.join(bench.out, figure))
        results["experiments"][name] = {"title": TITLES[name], "seconds": time.time() - t, "figure": figure,
                                        "data": raw}
        summary.append(f"## {TITLES[name]}\n\n{md}\n" + (f"\n![{TITLES[name]}]({figure})\n" if figure else ""))
        save()
    log(f"bench: done in {time.time() - started:.0f} s; results in {bench.out}")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
