"""graphso's algorithms as Spark DataFrame iterations, with graphso's semantics (docs/jobs.md).

Each function takes the batch's cached graph and a job's parameters and returns (values, rounds,
converged): values a DataFrame (id, value) over every vertex, value already in the form graphso
writes it (an integer, "inf", a float). Why DataFrames and not GraphX Pregel: GraphX has no
Python API (it would need a Scala jar compiled and shipped beside this tool), and GraphFrames'
JVM package is not reachable from here (docs/spark.md); DataFrame iterations run on any Spark
cluster as they are. Every round's state is checkpointed, so the plan Spark keeps
does not grow with the number of rounds (it ran the driver out of memory within ten rounds).

The iterations follow only what changed (BFS and SSSP frontiers, WCC labels that moved), as
graphso's do; PageRank touches every edge every round, as it must.
"""

from dataclasses import dataclass
from typing import Callable, Optional

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import Window
from pyspark.sql import functions as F

DAMPING = 0.85  # graphso's d when a job does not set it (jobs/pagerank.h, kDefaultDamping)


@dataclass
class Graph:
    spark: SparkSession
    vertices: int
    weighted: bool
    edges: DataFrame  # src, dst, weight (1 when the graph has none), cached
    shares: DataFrame  # src, dst, inverse (1 / out-degree of src): PageRank's edges, cached
    symmetric: bool = False  # every edge's reverse is an edge (prep's finding, in the export's graphso.json)
    reliable_checkpoints: bool = False  # rounds written to the checkpoint directory, not kept in memory
    on_round: Optional[Callable[[int], None]] = None  # told each finished round (batch.py's status line)
    real_weights: bool = False  # weight is a double (binary32 values): distances are doubles

    def round_done(self, rounds: int):
        if self.on_round:
            self.on_round(rounds)

    def all_vertices(self) -> DataFrame:
        return self.spark.range(self.vertices)  # column "id"


def _materialise(graph: Graph, df: DataFrame):
    """The round's result, stored, and its size (what the loop tests)."""
    df = _kept(graph, df)
    return df, df.count()


def _kept(graph: Graph, df: DataFrame) -> DataFrame:
    """State the next round reads, computed and stored now with its plan cut here: a plan that
    grows with the rounds costs Spark's optimiser more each round and, nested (each round's state
    refers to the last two), runs the driver out of memory within ten rounds. Kept by the executors
    (localCheckpoint: fast, but held until the session ends), or written to the checkpoint
    directory when one was given (slower; Spark deletes a round's files once nothing refers to it)."""
    return df.checkpoint(eager=True) if graph.reliable_checkpoints else df.localCheckpoint(eager=True)


def bfs(graph: Graph, source: int):
    """Hop level along out-edges from the source; -1 unreached (graphso's bfs)."""
    reached = graph.spark.createDataFrame([(source, 0)], "id long, level long")
    frontier = reached.select("id")
    level = 0
    while True:
        level += 1
        step = (frontier.join(graph.edges, frontier.id == graph.edges.src).select(F.col("dst").alias("id")).distinct()
                .join(reached, "id", "left_anti"))
        step, found = _materialise(graph, step)
        if found == 0:
            break
        reached = _kept(graph, reached.unionByName(step.withColumn("level", F.lit(level).cast("long"))))
        frontier = step
        graph.round_done(level)
    values = graph.all_vertices().join(reached, "id", "left").select("id", F.coalesce("level", F.lit(-1)).alias("value"))
    return values, level, True


def sssp(graph: Graph, source: int):
    """Shortest path lengths over the weights (1 when unweighted); inf unreached (graphso's sssp).
    Real weights: distances are doubles, each the sum along its path in path order, as graphso adds
    them."""
    start = (source, 0.0) if graph.real_weights else (source, 0)
    dist = graph.spark.createDataFrame([start], f"id long, dist {'double' if graph.real_weights else 'long'}")
    frontier = dist
    rounds = 0
    while True:
        rounds += 1
        offers = (frontier.join(graph.edges, frontier.id == graph.edges.src)
                  .groupBy(F.col("dst").alias("id")).agg(F.min(F.col("dist") + F.col("weight")).alias("offer")))
        better = (offers.join(dist, "id", "left")
                  .where(F.col("dist").isNull() | (F.col("offer") < F.col("dist")))
                  .select("id", F.col("offer").alias("dist")))
        better, found = _materialise(graph, better)
        if found == 0:
            break
        dist = _kept(graph, dist.join(better.select("id"), "id", "left_anti").unionByName(better))
        frontier = better
        graph.round_done(rounds)
    if graph.real_weights:  # written with graphso's {:.9g}, inf unreached
        values = graph.all_vertices().join(dist, "id", "left").select(
            "id", F.coalesce(F.col("dist"), F.lit(float("inf"))).alias("value"))
    else:
        values = graph.all_vertices().join(dist, "id", "left").select(
            "id", F.coalesce(F.col("dist").cast("string"), F.lit("inf")).alias("value"))
    return values, rounds, True


def wcc(graph: Graph):
    """Each vertex's smallest vertex id in its weakly connected component (graphso's wcc, either
    method): label propagation over both directions, only labels that moved sending."""
    both = graph.edges.select("src", "dst").unionByName(
        graph.edges.select(F.col("dst").alias("src"), F.col("src").alias("dst"))).distinct().cache()
    labels = _kept(graph, graph.all_vertices().withColumn("label", F.col("id")))
    moved = labels
    rounds = 0
    while True:
        rounds += 1
        offers = (moved.join(both, moved.id == both.src)
                  .groupBy(F.col("dst").alias("id")).agg(F.min("label").alias("offer")))
        lower = offers.join(labels, "id").where(F.col("offer") < F.col("label")).select("id", F.col("offer").alias("label"))
        lower, found = _materialise(graph, lower)
        if found == 0:
            break
        labels = _kept(graph, labels.join(lower.select("id"), "id", "left_anti").unionByName(lower))
        moved = lower
        graph.round_done(rounds)
    both.unpersist()
    return labels.select("id", F.col("label").alias("value")), rounds, True


def _rank_round(graph: Graph, rank: DataFrame, teleport: DataFrame, damping: float) -> DataFrame:
    """teleport(v) + d * sum over u->v of rank(u)/outdeg(u); no dangling mass redistributed."""
    arriving = (rank.join(graph.shares, rank.id == graph.shares.src)
                .groupBy(F.col("dst").alias("id")).agg(F.sum(F.col("rank") * F.col("inverse")).alias("arrived")))
    return (teleport.join(arriving, "id", "left")
            .select("id", (F.col("base") + damping * F.coalesce("arrived", F.lit(0.0))).alias("rank")))


def pagerank(graph: Graph, iterations: int, variant: str = "gap", damping: float = DAMPING):
    """A fixed number of synchronous iterations from 1/N (graphso's pagerank). variant
    "graphalytics" also gives every vertex d/N of the rank the vertices without out-edges held
    (LDBC Graphalytics' rule; "gap" leaves it unspread)."""
    n = graph.vertices
    teleport = graph.all_vertices().withColumn("base", F.lit((1 - damping) / n)).cache()
    dangling = None
    if variant == "graphalytics":
        dangling = graph.all_vertices().join(graph.shares.select(F.col("src").alias("id")).distinct(), "id",
                                             "left_anti").cache()
    rank = graph.all_vertices().withColumn("rank", F.lit(1.0 / n))
    for i in range(1, iterations + 1):
        step = teleport
        if dangling is not None:
            held = rank.join(dangling, "id").agg(F.sum("rank")).first()[0] or 0.0
            step = teleport.withColumn("base", F.col("base") + F.lit(damping * held / n))
        rank = _kept(graph, _rank_round(graph, rank, step, damping))
        graph.round_done(i)
    return rank.select("id", F.col("rank").alias("value")), iterations, True


def pagerank_to_tolerance(graph: Graph, tolerance: float, max_iterations: int, sources=None, damping: float = DAMPING):
    """PageRank (sources None) or personalized PageRank to an L1 tolerance (graphso's
    pagerank-delta and ppr, whose results are within d/(1-d) * tolerance of the fixed point).

    Power iteration from graphso's start, teleport(v) = (1-d)/N (or (1-d)/|S| on the sources), so
    ranks rise monotonically to the fixed point (x1 >= x0, and x(k+1) - x(k) = dM (x(k) - x(k-1)));
    it stops once a round changes them by at most
    (1-d) * tolerance in L1, which puts them within d * tolerance of it (the iteration contracts
    by d in L1)."""
    if sources:
        base = (1 - damping) / len(sources)
        teleport = graph.all_vertices().withColumn(
            "base", F.when(F.col("id").isin(list(sources)), F.lit(base)).otherwise(F.lit(0.0)))
    else:
        teleport = graph.all_vertices().withColumn("base", F.lit((1 - damping) / graph.vertices))
    teleport = teleport.cache()
    rank = teleport.select("id", F.col("base").alias("rank"))
    total = rank.agg(F.sum("rank")).first()[0]
    rounds, converged = 0, False
    while rounds < max_iterations:
        rounds += 1
        rank = _kept(graph, _rank_round(graph, rank, teleport, damping))
        graph.round_done(rounds)
        # No vertex's rank falls, so a round's L1 change is how much the total rose.
        was, total = total, rank.agg(F.sum("rank")).first()[0]
        if total - was <= (1 - damping) * tolerance:
            converged = True
            break
    return rank.select("id", F.col("rank").alias("value")), rounds, converged

def cdlp(graph: Graph, iterations: int):
    """LDBC Graphalytics' CDLP as graphso's cdlp: each of `iterations` synchronous steps gives every
    vertex the label most frequent among its counted neighbours (the smallest on a tie), or keeps
    its own. Counted per edge u->v (u != v): one for each end, or, on a symmetric graph, one for u
    (its reverse gives v its own)."""
    edges = graph.edges.where(F.col("src") != F.col("dst"))
    counted = edges.select(F.col("src").alias("id"), F.col("dst").alias("neighbour"))
    if not graph.symmetric:
        counted = counted.unionAll(edges.select(F.col("dst").alias("id"), F.col("src").alias("neighbour")))
    counted = counted.cache()
    labels = _kept(graph, graph.all_vertices().withColumn("label", F.col("id")))
    best_first = Window.partitionBy("id").orderBy(F.desc("count"), F.asc("offered"))
    for iteration in range(1, iterations + 1):
        offers = (counted.join(labels.select(F.col("id").alias("neighbour"), F.col("label").alias("offered")), "neighbour")
                  .groupBy("id", "offered").count())
        best = offers.withColumn("rank", F.row_number().over(best_first)).where(F.col("rank") == 1)
        labels = _kept(graph, labels.join(best.select("id", "offered"), "id", "left")
                       .select("id", F.coalesce("offered", "label").alias("label")))
        graph.round_done(iteration)
    counted.unpersist()
    return labels.select("id", F.col("label").alias("value")), iterations, True


def lcc(graph: Graph):
    """LDBC Graphalytics' LCC as graphso's lcc: N(v) the vertices linked to v either way, and the
    distinct edges u->w among them over |N(v)| (|N(v)| - 1); 0 below two neighbours."""
    edges = graph.edges.where(F.col("src") != F.col("dst")).select("src", "dst").distinct().cache()
    around = edges.select(F.col("src").alias("v"), F.col("dst").alias("u")).unionByName(
        edges.select(F.col("dst").alias("v"), F.col("src").alias("u"))).distinct().cache()
    sizes = around.groupBy("v").agg(F.count("*").alias("d"))
    among = (around.join(edges.select(F.col("src").alias("u"), F.col("dst").alias("w")), "u")
             .join(around.select("v", F.col("u").alias("w")), ["v", "w"])
             .groupBy("v").agg(F.count("*").alias("among")))
    per_vertex = sizes.join(among, "v", "left").select(
        F.col("v").alias("id"),
        F.when(F.col("d") < 2, F.lit(0.0)).otherwise(
            F.coalesce("among", F.lit(0)).cast("double") / (F.col("d") * (F.col("d") - 1)).cast("double")).alias("lcc"))
    values = graph.all_vertices().join(per_vertex, "id", "left").select(
        "id", F.coalesce("lcc", F.lit(0.0)).alias("value"))
    values = _kept(graph, values)
    edges.unpersist()
    around.unpersist()
    graph.round_done(1)
    return values, 1, True


# What each of graphso's algorithms runs as here; None: refused, with the reason.
def run_job(graph: Graph, algo: str, params: dict):
    damping = float(params.get("damping", DAMPING))
    if algo == "bfs":
        return bfs(graph, int(params["source"]))
    if algo == "sssp":
        return sssp(graph, int(params["source"]))
    if algo == "wcc":
        return wcc(graph)
    if algo == "pagerank":
        return pagerank(graph, int(params["iterations"]), str(params.get("variant", "gap")), damping)
    if algo == "pagerank-delta":
        return pagerank_to_tolerance(graph, float(params["tolerance"]), int(params["max_iterations"]), None, damping)
    if algo == "ppr":
        sources = [int(s) for s in str(params["source"]).split(",")]
        return pagerank_to_tolerance(graph, float(params["tolerance"]), int(params["max_iterations"]), sources, damping)
    if algo == "cdlp":
        return cdlp(graph, int(params["iterations"]))
    if algo == "lcc":
        return lcc(graph)
    raise ValueError(f"{algo} has no Spark form")

