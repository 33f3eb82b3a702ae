"""A graphso job file run on Spark: the same TOML, validated by graphso itself, the same results.

    spark-submit [--master URL] tools/spark/run.py EXPORT_DIR --jobs JOBS.toml --out DIR
                 [--report REPORT.json] [--graphso PATH] [--master URL] [--meta graphso.json]

EXPORT_DIR is what `graphso export GRAPH --format parquet -o EXPORT_DIR` wrote: a local path, or
any URL the cluster reads (hdfs://, s3a://) with --meta naming a local copy of its graphso.json. The job
file is checked by `graphso jobs --check` against the export's vertex count, so its keys, defaults
and error messages are graphso's own; everything is refused before a Spark session starts. Jobs
run one after another over one cached graph; each writes DIR/<job-name>.txt in graphso's text
format ("vertex value" lines, original ids), and the report gives wall seconds, rounds and
convergence per job.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from graphso_spark import export_meta
from graphso_spark.refused import REFUSED

HERE = os.path.dirname(os.path.abspath(__file__))


class Refused(Exception):
    """Bad input, found before Spark starts: one line, exit 1."""


def graphso_binary(given):
    if given:
        return given
    if os.environ.get("GRAPHSO_BIN"):
        return os.environ["GRAPHSO_BIN"]
    beside = os.path.join(HERE, "..", "..", "..", "build", "graphso")  # a repository checkout
    return os.path.normpath(beside) if os.path.exists(beside) else (shutil.which("graphso") or "graphso")


def checked_jobs(graphso, jobs_path, vertices):
    """The job file as graphso reads it: [{name, algo, params (defaults filled), arrive_after}]."""
    try:
        done = subprocess.run([graphso, "jobs", "--check", jobs_path, "--vertices", str(vertices)],
                              capture_output=True, text=True)
    except OSError as e:
        raise Refused(f"cannot run graphso ({graphso}): {e.strerror}; give --graphso PATH")
    if done.returncode != 0:
        # graphso's own one-line message, as `graphso run` gives it.
        raise Refused(done.stderr.strip().removeprefix("graphso: error: "))
    return json.loads(done.stdout)


def refuse_unsupported(jobs):
    for job in jobs:
        if "version" in job:
            raise Refused(f"job {job['name']}: version applies to a run on a store; Spark runs an edge list's graph")
        if job["algo"] in REFUSED:
            raise Refused(f"job {job['name']}: {job['algo']} does not run on Spark: {REFUSED[job['algo']]}")


RESULTS_MARKER = ".graphso-results"  # graphso run's marker (tools/graphso/cmd_run.cc): either may replace the other's


def check_results_directory(out):
    """--out is replaced whole, so it may only be missing, empty, or earlier results (marked)."""
    if not os.path.exists(out):
        return
    if not os.path.isdir(out):
        raise Refused(f"--out {out}: exists and is not a directory")
    if os.listdir(out) and not os.path.exists(os.path.join(out, RESULTS_MARKER)):
        raise Refused(f"--out {out}: exists and holds files that are not graphso results; choose a new or empty directory")


def identical_jobs(jobs):
    """{job name: the name of the first job before it with the same algorithm and parameters}, for the
    jobs that have one (graphso's Job::signature; a job's name and arrival do not change its result)."""
    first, same = {}, {}
    for job in jobs:
        signature = (job["algo"], json.dumps(job["params"], sort_keys=True))
        if signature in first:
            same[job["name"]] = first[signature]
        else:
            first[signature] = job["name"]
    return same


def write_values(values, path):
    # Streamed in id order, one partition at a time: the driver never holds a whole result.
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        for row in values.orderBy("id").toLocalIterator():
            value = row["value"]
            if isinstance(value, float):
                value = format(value, ".9g")  # graphso's {:.9g}
            out.write(f"{row['id']} {value}\n")
    os.replace(tmp, path)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="graphso-spark", description="Run a graphso job file on Spark.")
    p.add_argument("export", help="a directory written by graphso export --format parquet")
    p.add_argument("--meta", help="a local copy of the export's graphso.json (when EXPORT is a URL)")
    p.add_argument("--jobs", required=True, help="a graphso TOML job file")
    p.add_argument("--out", required=True, help="results directory (replaced whole)")
    p.add_argument("--report", help="write a JSON report here")
    p.add_argument("--graphso", help="the graphso binary that checks the job file (default: $GRAPHSO_BIN, "
                                     "the checkout's build/graphso, or graphso on PATH)")
    p.add_argument("--master", help="Spark master URL (default: spark-submit's, else local[*])")
    p.add_argument("--checkpoint-dir", help="write each round's state here instead of keeping it in executor "
                                            "memory until the session ends (long jobs; on a cluster, a directory "
                                            "every executor can write, e.g. on HDFS)")
    p.add_argument("--backend", choices=["auto", "graphx", "dataframe"], default="auto",
                   help="graphx: Pregel programs in the jar `make deps-spark` builds (build/graphx/graphso-graphx.jar, "
                        "or $GRAPHSO_GRAPHX_JAR); dataframe: DataFrame loops in Python; auto (default): graphx when "
                        "the jar is there")
    p.add_argument("--grouping", choices=["on", "off"], default="on",
                   help="GraphX: run the batch's BFS jobs as one Pregel program, and its SSSP jobs as another "
                        "(on, the default, as graphso run groups them), or each job alone (off)")
    p.add_argument("--shuffle-partitions", type=int, default=0,
                   help="spark.sql.shuffle.partitions (default: 2 per core of the master; "
                                                      "Spark's 200 made a small batch 3x slower)")
    return p.parse_args(argv)


class StatusLine:
    """graphso's status line: on a terminal, one line rewritten in place (what is running, for how
    long); elsewhere nothing."""

    def __init__(self):
        self.on = sys.stderr.isatty()

    def show(self, text):
        if self.on:
            width = shutil.get_terminal_size().columns - 1
            print("\r" + text[:width].ljust(width), end="", file=sys.stderr, flush=True)

    def clear(self):
        self.show("")
        if self.on:
            print("\r", end="", file=sys.stderr, flush=True)


def main(argv=None):
    started = time.time()  # before the JVM starts: what the summary's total counts from
    args = parse_args(argv if argv is not None else sys.argv[1:])
    try:
        meta = export_meta.read(args.export, args.meta)
        jobs = checked_jobs(graphso_binary(args.graphso), args.jobs, meta["vertices"])
        refuse_unsupported(jobs)
        check_results_directory(args.out)
        jar = chosen_jar(args.backend)
    except (Refused, export_meta.ExportError) as e:
        print(f"graphso-spark: error: {e}", file=sys.stderr)
        return 1

    staging = args.out.rstrip("/") + ".graphso-spark.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    try:
        return run_batch(args, meta, jobs, staging, started, jar)
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # published by now, or a failed run's


def chosen_jar(backend):
    """The GraphX jar when the batch runs on GraphX, None for the DataFrame back end."""
    from graphso_spark.graphx import jar_path  # no Spark import: a path only
    jar = jar_path()
    if backend == "dataframe" or (backend == "auto" and jar is None):
        return None
    if jar is None or not os.path.exists(jar):
        raise Refused(f"no GraphX jar at {jar or 'build/graphx/graphso-graphx.jar'}; build it with make deps-spark, "
                      "or run --backend dataframe")
    return jar


def run_batch(args, meta, jobs, staging, started, jar):
    # Imported only now: a refused batch never loads Spark.
    from pyspark.sql import SparkSession
    from graphso_spark import algorithms

    status = StatusLine()
    status.show(f"starting Spark ({args.master or 'spark-submit master'}): the JVM and a session")
    builder = (SparkSession.builder.appName("graphso batch").config("spark.ui.showConsoleProgress", "false")
               .config("spark.cleaner.referenceTracking.cleanCheckpoints", "true"))
    if args.master:
        builder = builder.master(args.master)
    if jar:
        from graphso_spark import graphx
        builder = graphx.session_config(builder, jar)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    if args.checkpoint_dir:
        spark.sparkContext.setCheckpointDir(args.checkpoint_dir)
    elif jar and spark.sparkContext.master.startswith("local"):
        # GraphX cuts a long job's lineage by checkpoints (graphx.py); on one machine a directory
        # of the run's own serves, removed with the staging directory.
        spark.sparkContext.setCheckpointDir(os.path.join(os.path.abspath(staging), ".checkpoints"))
    cores = spark.sparkContext.defaultParallelism
    spark.conf.set("spark.sql.shuffle.partitions", str(args.shuffle_partitions or 2 * cores))
    session_seconds = time.time() - started
    status.show(f"loading {args.export}")
    loading = time.time()
    paths = export_meta.part_paths(args.export, meta)
    if jar:
        backend = graphx.Batch(spark, jar, paths, meta, 2 * cores)
        held = backend.edge_count()
        run_job = backend.run_job
    else:
        graph, held = load_dataframes(spark, args, meta, paths, cores)
        run_job = lambda algo, params, damping: (*algorithms.run_job(graph, algo, params), None)  # noqa: E731
    if held != meta["edges"]:
        spark.stop()
        print(f"graphso-spark: error: {args.export}: the parts hold {held} edges, graphso.json says {meta['edges']}",
              file=sys.stderr)
        return 1
    load_seconds = time.time() - loading

    report = {"export": args.export, "backend": "graphx" if jar else "dataframe", "master": spark.sparkContext.master,
              "cores": cores,
              "vertices": meta["vertices"], "edges": meta["edges"], "session_seconds": session_seconds,
              "load_seconds": load_seconds, "jobs": []}
    jobs_began = time.time()
    # Identical jobs are computed once, as graphso computes them (docs/jobs.md): each later one
    # takes the first's result file. On GraphX, the batch's other BFS and SSSP jobs run as one
    # Pregel program (graphx.py): the group runs when its first job's turn comes, so that job's
    # seconds hold the program's.
    first_of = identical_jobs(jobs)
    distinct = [job for job in jobs if job["name"] not in first_of]
    groups = graphx.traversal_groups(distinct) if jar and args.grouping == "on" else {}
    grouped = {}  # job name -> (values, rounds, converged, its group's job names)
    done = {}  # job name -> its report entry
    for job in jobs:
        began = time.time()
        same = first_of.get(job["name"])
        group = groups.get(job["name"])
        if same:
            shutil.copyfile(os.path.join(staging, same + ".txt"), os.path.join(staging, job["name"] + ".txt"))
            rounds, converged = done[same]["iterations"], done[same]["converged"]
        else:
            status.show(f"{job['name']} ({job['algo']}): round 1" if not group else
                        f"{len(group)} traversals as one Pregel program")
            if group and job["name"] not in grouped:
                outcomes, group_release = backend.run_group(group)
                for member, outcome in zip(group, outcomes):
                    grouped[member["name"]] = (*outcome, [m["name"] for m in group])
            if group:
                values, rounds, converged, names = grouped[job["name"]]
                release = group_release if job["name"] == group[-1]["name"] else None
            else:
                if not jar:
                    graph.on_round = lambda rounds, job=job, began=began: status.show(
                        f"{job['name']} ({job['algo']}): round {rounds}, {time.time() - began:.1f} s")
                values, rounds, converged, release = run_job(job["algo"], job["params"],
                                                             float(job["params"].get("damping", algorithms.DAMPING)))
            write_values(values, os.path.join(staging, job["name"] + ".txt"))
            if release:
                release()  # GraphX: the graphs its values were read from
        seconds = time.time() - began
        status.clear()
        entry = {"name": job["name"], "algo": job["algo"], "seconds": seconds, "iterations": rounds, "converged": converged}
        shared = ""
        if same:
            entry["same_as"] = same
            shared = f", the result of {same} (identical)"
        elif group:
            # Its share of the program's time is not known apart: the first job's seconds hold the
            # program's, the others' their own result's writing.
            entry["group"] = names
            shared = f", one Pregel program with {len(names) - 1} more"
        done[job["name"]] = entry
        report["jobs"].append(entry)
        print(f"{job['name']} ({job['algo']}): {rounds} rounds{'' if converged else ', not converged'}, "
              f"{seconds:.2f} s{shared}", flush=True)
    report["jobs_seconds"] = time.time() - jobs_began
    # What the batch leaves cached at its end: on GraphX the graph and PageRank's out-degrees, however
    # many jobs ran (each job's own are released once its result is written).
    report["cached_rdds"] = spark.sparkContext._jsc.sc().getPersistentRDDs().size()
    spark.stop()
    # Everything from the command's start, the JVM's start and the session's end included.
    report["seconds"] = time.time() - started
    shutil.rmtree(os.path.join(staging, ".checkpoints"), ignore_errors=True)
    with open(os.path.join(staging, RESULTS_MARKER), "w") as marker:
        marker.write("graphso results\nformat: text\n")
    # Published whole: the old results go only once the new ones are all written.
    shutil.rmtree(args.out, ignore_errors=True)
    os.replace(staging, args.out)
    if args.report:
        with open(args.report + ".tmp", "w") as f:
            json.dump(report, f, indent=2)
        os.replace(args.report + ".tmp", args.report)
    print(f"{len(jobs)} jobs in {report['seconds']:.2f} s on {report['master']} ({report['backend']}): starting Spark "
          f"{session_seconds:.2f} s, loading the export {load_seconds:.2f} s, the jobs {report['jobs_seconds']:.2f} s")
    return 0


def load_dataframes(spark, args, meta, paths, cores):
    """The DataFrame back end's cached graph (graphso_spark.algorithms), and the edges it holds."""
    from pyspark.sql import functions as F
    from graphso_spark import algorithms
    edges = spark.read.parquet(*paths)
    if not meta["weighted"]:
        edges = edges.withColumn("weight", F.lit(1).cast("long"))
    real_weights = bool(meta.get("real_weights", False))  # float64 weights; distances then double
    edges = edges.select("src", "dst", "weight").repartition(2 * cores, "src").cache()
    held = edges.count()
    degrees = edges.groupBy("src").agg((1.0 / F.count("*")).alias("inverse"))
    shares = edges.select("src", "dst").join(degrees, "src").repartition(2 * cores, "src").cache()
    shares.count()
    graph = algorithms.Graph(spark, meta["vertices"], meta["weighted"], edges, shares, meta["symmetric"],
                             bool(args.checkpoint_dir), real_weights=real_weights)
    return graph, held
