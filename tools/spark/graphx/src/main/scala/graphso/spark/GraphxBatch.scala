// graphso's algorithms on GraphX (docs/spark.md, "Which algorithm runs how"), with graphso's
// semantics (docs/jobs.md): what tools/spark/run.py runs a batch with when the jar is built.
//
// The Python tool checks the job file, starts the session, and calls load() once: the export's
// edges become one cached Graph that every job of the batch runs on. Each job method returns a
// JobResult: a DataFrame (id, value) over every vertex, with value in the form graphso writes it
// (a long, "inf" or a number as text, a double), the rounds it took and whether it converged; the
// Python tool writes it out as it writes the DataFrame back end's.
//
// Traversals (BFS, SSSP, WCC) are Pregel programs: a vertex sends only in the superstep after it
// changed, as graphso's frontiers do. PageRank, whose every vertex sends every round, and CDLP,
// which counts labels, are rounds of aggregateMessages; LCC intersects the neighbour sets at each
// edge's two ends.
package graphso.spark

import org.apache.spark.HashPartitioner
import org.apache.spark.graphx._
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.types._
import org.apache.spark.storage.StorageLevel

// A job's values, rounds and convergence, and the graphs it left cached that the values are read
// from: release() drops them once the values are written, so a batch of many jobs holds one job's
// graphs at a time, not every job's until the session ends. `shared` names edge RDDs that are the
// batch's own (a graph mapped from the batch's keeps its edges), which stay.
class JobResult(val values: DataFrame, val rounds: Int, val converged: Boolean, held: Seq[Graph[_, _]],
                shared: Set[Int]) {
  def release(): Unit = held.foreach { g =>
    g.unpersistVertices(blocking = false)
    if (!shared.contains(g.edges.id)) g.edges.unpersist(blocking = false)
  }
}

object GraphxBatch {
  // Reads the export's Parquet parts (columns src, dst and, weighted, weight: int64, or float64
  // for real weights) into a cached graph over vertices 0 .. vertices - 1.
  def load(spark: SparkSession, paths: Array[String], vertices: Long, weighted: Boolean, realWeights: Boolean,
           symmetric: Boolean, partitions: Int): GraphxBatch = {
    val parts = spark.read.parquet(paths.toIndexedSeq: _*)
    val columns = if (weighted) Seq("src", "dst", "weight") else Seq("src", "dst")
    // Each edge goes straight to the partition GraphX's 2D rule gives it, in one shuffle; the
    // graph's edge partitions are then built where the edges lie. (A repartition, then
    // partitionBy, shuffled every edge twice and built the edge partitions twice.)
    val strategy = PartitionStrategy.EdgePartition2D
    val edges: RDD[Edge[Double]] = parts.select(columns.map(parts.col): _*).rdd.map { row =>
      val weight = if (!weighted) 1.0 else if (realWeights) row.getDouble(2) else row.getLong(2).toDouble
      val (src, dst) = (row.getLong(0), row.getLong(1))
      (strategy.getPartition(src, dst, partitions), Edge(src, dst, weight))
    }.partitionBy(new HashPartitioner(partitions)).values
    val ids: RDD[(VertexId, Byte)] = spark.sparkContext.range(0, vertices, 1, partitions).map(v => (v, 0.toByte))
    val graph = Graph(ids, edges, 0.toByte, StorageLevel.MEMORY_AND_DISK, StorageLevel.MEMORY_AND_DISK).cache()
    graph.edges.foreachPartition(_ => ())
    graph.vertices.foreachPartition(_ => ())
    new GraphxBatch(spark, graph, vertices, realWeights, symmetric)
  }
}

// Serializable, its session and graphs transient: a closure that names a field (symmetric) takes
// the batch along to the executors, which need only that field.
class GraphxBatch(@transient private val spark: SparkSession, @transient val graph: Graph[Byte, Double], val vertices: Long,
                  realWeights: Boolean, symmetric: Boolean) extends Serializable {
  // The edges in the graph (graph.edges.count()): the tool checks it against graphso.json.
  def edgeCount(): Long = graph.edges.count()

  private def result[V](values: RDD[(VertexId, V)], kind: DataType, rounds: Int, converged: Boolean,
                        held: Seq[Graph[_, _]]): JobResult = {
    val rows = values.map { case (id, v) => Row(id, v) }
    val schema = StructType(Seq(StructField("id", LongType, nullable = false), StructField("value", kind, nullable = false)))
    new JobResult(spark.createDataFrame(rows, schema), rounds, converged, held, Set(graph.edges.id))
  }

  // Pregel (CountedPregel: GraphX's, counting its supersteps) from `start` (a value per vertex,
  // `none` where nothing reached yet), lowering values by `better`; `offer(value, weight)` is what
  // an edge carries. Sends along out-edges, or both ways when `either`. The rounds: the supersteps
  // that changed something, and the one that found nothing more, as graphso counts its rounds.
  private def lowering[V: scala.reflect.ClassTag](start: VertexId => V, none: V, offer: (V, Double) => V,
                                                  better: (V, V) => Boolean, either: Boolean): (Graph[V, Double], Int, Graph[V, Double]) = {
    val initial = graph.mapVertices((id, _) => start(id))
    // Superstep 0 gives every vertex `none`, which changes nothing: every vertex then sends.
    val (result, supersteps) = CountedPregel(initial, none, if (either) EdgeDirection.Either else EdgeDirection.Out)(
      (_, held, got) => if (better(got, held)) got else held,
      triplet => {
        val out = Iterator.newBuilder[(VertexId, V)]
        val s = triplet.srcAttr
        val d = triplet.dstAttr
        if (s != none) {
          val carried = offer(s, triplet.attr)
          if (better(carried, d)) out += ((triplet.dstId, carried))
        }
        if (either && d != none) {
          val carried = offer(d, triplet.attr)
          if (better(carried, s)) out += ((triplet.srcId, carried))
        }
        out.result()
      },
      (a, b) => if (better(b, a)) b else a)
    // The initial graph too: Pregel's first map of it caches its vertices.
    (result, supersteps + 1, initial)
  }

  // Hop levels along out-edges from `source`, -1 unreached (graphso's bfs).
  def bfs(source: Long): JobResult = traversal(source, weighs = false)

  // Shortest path lengths over the weights (1 unweighted), "inf" unreached (graphso's sssp).
  // Integer weights: exact sums, written as integers; real weights: doubles, each the sum along
  // its path in path order, as graphso adds them.
  def sssp(source: Long): JobResult = traversal(source, weighs = true)

  // One BFS or SSSP: distances in doubles (levels and integer sums are exact below 2^53), a hop
  // the edge's weight or 1.
  private def traversal(source: Long, weighs: Boolean): JobResult = {
    val none = Double.PositiveInfinity
    val (g, rounds, initial) = lowering[Double](id => if (id == source) 0.0 else none, none,
                                                (d, w) => d + (if (weighs) w else 1.0), (a, b) => a < b, either = false)
    distances(g.vertices, weighs, rounds, Seq(g, initial))
  }

  // A traversal's distances (infinity unreached) as graphso writes them: BFS levels as longs, -1
  // unreached; SSSP distances as doubles on real weights, else whole numbers as text, "inf"
  // unreached.
  private def distances(values: RDD[(VertexId, Double)], weighs: Boolean, rounds: Int, held: Seq[Graph[_, _]]): JobResult = {
    val none = Double.PositiveInfinity
    if (!weighs) result(values.mapValues(d => if (d == none) -1L else d.toLong), LongType, rounds, true, held)
    else if (realWeights) result(values, DoubleType, rounds, true, held)
    else result(values.mapValues(d => if (d == none) "inf" else d.toLong.toString), StringType, rounds, true, held)
  }

  // Several BFS and SSSP jobs (lane j from sources(j), weighing its hops when weighs(j): an SSSP)
  // as one Pregel program, sharing its supersteps as graphso's grouped traversals share rounds:
  // each vertex holds one distance per job (a double: levels and integer sums are exact below
  // 2^53), a message carries the distances it lowers (infinity elsewhere), and messages to a
  // vertex merge by the least per job. The group takes as many supersteps as its longest
  // traversal, not their sum. Results in the order of `sources`, as bfs() and sssp() give them;
  // every job's rounds are the group's.
  def traversals(sources: Array[Long], weighs: Array[Boolean]): Array[JobResult] = {
    require(sources.length == weighs.length, "one weighs flag per source")
    val k = sources.length
    val none = Double.PositiveInfinity
    val starts = sources.zipWithIndex.groupMap(_._1)(_._2)  // a source may start several jobs
    val initial = graph.mapVertices { (id, _) =>
      val at = Array.fill(k)(none)
      starts.get(id).foreach(_.foreach(j => at(j) = 0.0))
      at
    }
    val (g, supersteps) = CountedPregel(initial, Array.empty[Double], EdgeDirection.Out)(
      (_, held, got) => {
        var lowered: Array[Double] = null  // held, unless the message lowers some distance
        for (j <- got.indices if got(j) < held(j)) {
          if (lowered == null) lowered = held.clone()
          lowered(j) = got(j)
        }
        if (lowered == null) held else lowered
      },
      triplet => {
        val (s, d) = (triplet.srcAttr, triplet.dstAttr)
        var offer: Array[Double] = null
        for (j <- 0 until k if s(j) != none) {
          val reached = s(j) + (if (weighs(j)) triplet.attr else 1.0)
          if (reached < d(j)) {
            if (offer == null) offer = Array.fill(k)(none)
            offer(j) = reached
          }
        }
        if (offer == null) Iterator.empty else Iterator((triplet.dstId, offer))
      },
      (a, b) => Array.tabulate(k)(j => math.min(a(j), b(j))))
    g.cache()
    // Every job's result reads the one graph: release() any of them only once all are written.
    Array.tabulate(k)(j => distances(g.vertices.mapValues(_(j)), weighs(j), supersteps + 1, Seq(g, initial)))
  }

  // Each vertex's smallest vertex id in its weakly connected component (graphso's wcc).
  def wcc(): JobResult = {
    val (g, rounds, initial) = lowering[Long](id => id, Long.MaxValue, (label, _) => label, (a, b) => a < b, either = true)
    result(g.vertices, LongType, rounds, true, Seq(g, initial))
  }

  // Out-degrees, 0 where a vertex has none.
  @transient private lazy val outDegrees: Graph[Int, Double] =
    graph.outerJoinVertices(graph.outDegrees)((_, _, d) => d.getOrElse(0)).cache()

  // One synchronous PageRank round: base(v) + d * sum over u->v of rank(u) / outdeg(u).
  private def rankRound(ranks: Graph[(Double, Int), Double], base: VertexId => Double, damping: Double): Graph[(Double, Int), Double] = {
    val arrived = ranks.aggregateMessages[Double](
      ctx => ctx.sendToDst(ctx.srcAttr._1 / ctx.srcAttr._2), _ + _, TripletFields.Src)
    ranks.outerJoinVertices(arrived)((id, held, sum) => (base(id) + damping * sum.getOrElse(0.0), held._2))
  }

  // A job's rounds of graphs: each round's cached and computed now, vertices and the edges that
  // carry them, and the round before's dropped, as GraphX's own PageRank does (dropping it before
  // this round's edges were computed made each round recompute the ones before: a job to a
  // tolerance did not finish in ten minutes). Every kCheckpointRounds-th round is checkpointed
  // (the session's checkpoint directory: --checkpoint-dir, or one in the results' staging directory
  // on a local master), so that a round's plan does not hold every round before it. (A local
  // checkpoint would be cheaper, but GraphX keeps a graph's vertices in an RDD of its own that
  // dropping the round before takes from under it.) Of the job's first graph only the vertices
  // are dropped: its edges are the batch's graph's.
  private class Rounds[V](val first: Graph[V, Double]) {
    private val kCheckpointRounds = 25
    private var before: Option[Graph[V, Double]] = None
    private var round = 0
    def keep(g: Graph[V, Double]): Graph[V, Double] = {
      round += 1
      g.cache()
      if (round % kCheckpointRounds == 0 && spark.sparkContext.getCheckpointDir.isDefined) g.checkpoint()
      g.edges.foreachPartition(_ => ())
      before match {
        case Some(old) =>
          old.vertices.unpersist(blocking = false)
          old.edges.unpersist(blocking = false)
        case None => first.vertices.unpersist(blocking = false)  // its edges are the batch's
      }
      before = Some(g)
      g
    }
  }

  // A fixed number of synchronous iterations from 1/N (graphso's pagerank). "graphalytics" also
  // gives every vertex d/N of the rank held by vertices without out-edges (LDBC Graphalytics' rule).
  def pagerank(iterations: Int, variant: String, damping: Double): JobResult = {
    val n = vertices.toDouble
    var ranks = outDegrees.mapVertices((_, degree) => (1.0 / n, degree)).cache()
    val rounds = new Rounds(ranks)
    for (_ <- 1 to iterations) {
      val dangling = if (variant == "graphalytics") ranks.vertices.filter(_._2._2 == 0).map(_._2._1).fold(0.0)(_ + _) else 0.0
      val base = (1 - damping) / n + damping * dangling / n
      ranks = rounds.keep(rankRound(ranks, _ => base, damping))
    }
    result(ranks.vertices.map { case (id, (rank, _)) => (id, rank) }, DoubleType, iterations, true, Seq(ranks, rounds.first))
  }

  // PageRank (no sources) or personalized PageRank to an L1 tolerance (graphso's pagerank-delta
  // and ppr), by the DataFrame back end's rule: power iteration from the teleport vector, whose
  // ranks rise to the fixed point, stopped once a round adds at most (1 - d) * tolerance in L1.
  def pagerankToTolerance(tolerance: Double, maxIterations: Int, sources: Array[Long], damping: Double): JobResult = {
    val teleportSet = sources.toSet
    val base: VertexId => Double =
      if (sources.isEmpty) { val b = (1 - damping) / vertices.toDouble; _ => b }
      else { val b = (1 - damping) / sources.length; id => if (teleportSet.contains(id)) b else 0.0 }
    var ranks = outDegrees.mapVertices((id, degree) => (base(id), degree)).cache()
    val kept = new Rounds(ranks)
    var total = ranks.vertices.map(_._2._1).fold(0.0)(_ + _)
    var rounds = 0
    var converged = false
    while (!converged && rounds < maxIterations) {
      rounds += 1
      ranks = kept.keep(rankRound(ranks, base, damping))
      val was = total
      total = ranks.vertices.map(_._2._1).fold(0.0)(_ + _)
      converged = total - was <= (1 - damping) * tolerance
    }
    result(ranks.vertices.map { case (id, (rank, _)) => (id, rank) }, DoubleType, rounds, converged, Seq(ranks, kept.first))
  }

  // LDBC Graphalytics' CDLP (graphso's cdlp): each of `iterations` synchronous steps gives every
  // vertex the label most frequent among its counted neighbours (the smallest on a tie), or keeps
  // its own. Counted per edge u->v (u != v): one for each end, or, on a symmetric graph, one for v
  // (its reverse counts for u).
  def cdlp(iterations: Int): JobResult = {
    val both = !symmetric
    var labels: Graph[Long, Double] = graph.mapVertices((id, _) => id).cache()
    val rounds = new Rounds(labels)
    for (_ <- 1 to iterations) {
      val counts = labels.aggregateMessages[Map[Long, Long]](
        ctx => if (ctx.srcId != ctx.dstId) {
          ctx.sendToDst(Map(ctx.srcAttr -> 1L))
          if (both) ctx.sendToSrc(Map(ctx.dstAttr -> 1L))
        },
        (a, b) => b.foldLeft(a) { case (m, (label, k)) => m.updated(label, m.getOrElse(label, 0L) + k) })
      labels = rounds.keep(labels.outerJoinVertices(counts)((_, own, counted) =>
        counted.fold(own)(_.toSeq.minBy { case (label, k) => (-k, label) }._1)))
    }
    result(labels.vertices, LongType, iterations, true, Seq(labels, rounds.first))
  }

  // LDBC Graphalytics' LCC (graphso's lcc): N(v) the vertices linked to v either way, and the
  // distinct edges u->w among them over |N(v)| (|N(v)| - 1); 0 below two neighbours. Each
  // distinct edge u->w adds one to every v in N(u) and N(w) both.
  def lcc(): JobResult = {
    val around: VertexRDD[Array[Long]] = graph.collectNeighborIds(EdgeDirection.Either).mapValues { (id, ns) =>
      ns.iterator.filter(_ != id).toArray.distinct.sorted
    }
    val distinct = graph.edges.filter(e => e.srcId != e.dstId).map(e => (e.srcId, e.dstId)).distinct()
      .map { case (s, d) => Edge(s, d, 0.toByte) }
    val sets = Graph(around, distinct, Array.empty[Long])
    val among = sets.triplets.flatMap { t =>
      val (a, b) = (t.srcAttr, t.dstAttr)
      val common = Array.newBuilder[(VertexId, Long)]
      var i = 0
      var j = 0
      while (i < a.length && j < b.length) {
        if (a(i) < b(j)) i += 1
        else if (a(i) > b(j)) j += 1
        else { common += ((a(i), 1L)); i += 1; j += 1 }
      }
      common.result()
    }.reduceByKey(_ + _)
    val values = around.leftJoin(among) { (_, ns, counted) =>
      val d = ns.length.toDouble
      if (ns.length < 2) 0.0 else counted.getOrElse(0L).toDouble / (d * (d - 1))
    }
    result(graph.vertices.leftJoin(values)((_, _, v) => v.getOrElse(0.0)), DoubleType, 1, true, Seq(sets))
  }
}
