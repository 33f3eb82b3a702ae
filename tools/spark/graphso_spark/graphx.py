"""The GraphX back end: graphso's algorithms as GraphX programs in a Scala jar
(tools/spark/graphx, built by `make deps-spark` into build/graphx/graphso-graphx.jar), called
through the session's JVM. Its results come back as DataFrames (id, value) in the form graphso
writes, so batch.py writes them as it writes the DataFrame back end's."""

import os

from pyspark.sql import DataFrame

HERE = os.path.dirname(os.path.abspath(__file__))
CLASS = "graphso.spark.GraphxBatch"


def jar_path():
    """The jar: $GRAPHSO_GRAPHX_JAR, else the checkout's build/graphx/graphso-graphx.jar; None if absent."""
    given = os.environ.get("GRAPHSO_GRAPHX_JAR")
    if given:
        return given
    beside = os.path.normpath(os.path.join(HERE, "..", "..", "..", "build", "graphx", "graphso-graphx.jar"))
    return beside if os.path.exists(beside) else None


# Supersteps between Pregel's checkpoints, when the session has a checkpoint directory: without
# them a superstep's plan holds every one before it (a road network's BFS takes hundreds).
PREGEL_CHECKPOINT_INTERVAL = 25


def session_config(builder, jar):
    """Puts the jar on the driver's class path (when this process starts the JVM) and ships it to
    the executors."""
    return (builder.config("spark.jars", jar).config("spark.driver.extraClassPath", jar)
            .config("spark.graphx.pregel.checkpointInterval", str(PREGEL_CHECKPOINT_INTERVAL)))


def _batch_class(spark, jar):
    """GraphxBatch's companion, found on the driver's class path or, when spark-submit started the
    JVM before this process could add the jar to it, through a class loader of its own over the jar
    (the executors have it from spark.jars either way)."""
    jvm = spark._jvm
    thread = jvm.java.lang.Thread.currentThread()
    try:
        jvm.java.lang.Class.forName(CLASS + "$", True, thread.getContextClassLoader())
    except Exception:  # noqa: BLE001 (py4j's Py4JJavaError: not on the class path)
        url = jvm.java.io.File(jar).toURI().toURL()
        urls = spark.sparkContext._gateway.new_array(jvm.java.net.URL, 1)
        urls[0] = url
        thread.setContextClassLoader(jvm.java.net.URLClassLoader(urls, thread.getContextClassLoader()))
    return jvm.graphso.spark.GraphxBatch


# Traversals one Pregel program carries at most: each vertex holds a distance per job.
GROUP_JOBS = 64


TRAVERSALS = ("bfs", "sssp")


def traversal_groups(jobs):
    """The batch's BFS and SSSP jobs, in job order, in groups of two to GROUP_JOBS that run as one
    Pregel program each (Batch.run_group; an SSSP lane weighs its hops, a BFS lane counts them):
    {job name: its group's jobs}."""
    groups = {}
    same = [job for job in jobs if job["algo"] in TRAVERSALS]
    for first in range(0, len(same), GROUP_JOBS):
        group = same[first:first + GROUP_JOBS]
        if len(group) > 1:
            groups.update({job["name"]: group for job in group})
    return groups


class Batch:
    """One cached GraphX graph for every job of the batch."""

    def __init__(self, spark, jar, paths, meta, partitions):
        self.spark = spark
        self.batch = _batch_class(spark, jar).load(
            spark._jsparkSession, _java_array(spark, spark._jvm.java.lang.String, paths), meta["vertices"], bool(meta["weighted"]),
            bool(meta.get("real_weights", False)), bool(meta["symmetric"]), partitions)

    def edge_count(self):
        return self.batch.edgeCount()

    def run_group(self, group):
        """A group of traversal_groups() as one Pregel program: [(values, rounds, converged)] in its order, and the
        release() of the graph they are all read from."""
        sources = _java_array(self.spark, self.spark._jvm.long, [int(job["params"]["source"]) for job in group])
        weighs = _java_array(self.spark, self.spark._jvm.boolean, [job["algo"] == "sssp" for job in group])
        results = self.batch.traversals(sources, weighs)
        # One graph serves every result: released once, after the last is written.
        return [(DataFrame(r.values(), self.spark), r.rounds(), r.converged()) for r in results], results[0].release

    def run_job(self, algo, params, damping):
        """(values, rounds, converged, release): release() drops what the values are read from, once written."""
        b = self.batch
        if algo == "bfs":
            r = b.bfs(int(params["source"]))
        elif algo == "sssp":
            r = b.sssp(int(params["source"]))
        elif algo == "wcc":
            r = b.wcc()
        elif algo == "pagerank":
            r = b.pagerank(int(params["iterations"]), str(params.get("variant", "gap")), damping)
        elif algo in ("pagerank-delta", "ppr"):
            sources = [int(s) for s in str(params["source"]).split(",")] if algo == "ppr" else []
            r = b.pagerankToTolerance(float(params["tolerance"]), int(params["max_iterations"]),
                                      _java_array(self.spark, self.spark._jvm.long, sources), damping)
        elif algo == "cdlp":
            r = b.cdlp(int(params["iterations"]))
        elif algo == "lcc":
            r = b.lcc()
        else:
            raise ValueError(f"{algo} has no GraphX form")
        return DataFrame(r.values(), self.spark), r.rounds(), r.converged(), r.release


def _java_array(spark, kind, items):
    """items as a Java array of `kind` (a py4j class, or spark._jvm.long)."""
    array = spark.sparkContext._gateway.new_array(kind, len(items))
    for k, item in enumerate(items):
        array[k] = item
    return array
