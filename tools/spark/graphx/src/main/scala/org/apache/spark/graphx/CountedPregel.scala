// Pregel that also says how many supersteps it ran, which GraphX's Pregel does not return and a
// job's report needs (its rounds). It lives in GraphX's package for what the public API lacks:
// sending only along edges of vertices that received a message (mapReduceTriplets with an active
// set) and the periodic checkpoints that keep a superstep's plan short
// (spark.graphx.pregel.checkpointInterval, in a session with a checkpoint directory). Each vertex
// then keeps its value alone, not a value and a superstep: a primitive column, where a tuple per
// vertex cost an object per vertex per superstep.
package org.apache.spark.graphx

import scala.reflect.ClassTag

import org.apache.spark.graphx.util.PeriodicGraphCheckpointer
import org.apache.spark.rdd.RDD
import org.apache.spark.rdd.util.PeriodicRDDCheckpointer

object CountedPregel {
  // GraphX's Pregel with an initial message and no limit on supersteps: the graph it ends with,
  // and the supersteps after the first (each a round of messages that changed something).
  def apply[VD: ClassTag, ED: ClassTag, A: ClassTag](graph: Graph[VD, ED], initialMsg: A, activeDirection: EdgeDirection)(
      vprog: (VertexId, VD, A) => VD, sendMsg: EdgeTriplet[VD, ED] => Iterator[(VertexId, A)],
      mergeMsg: (A, A) => A): (Graph[VD, ED], Int) = {
    val sc = graph.vertices.sparkContext
    val interval = sc.getConf.getInt("spark.graphx.pregel.checkpointInterval", -1)
    val graphs = new PeriodicGraphCheckpointer[VD, ED](interval, sc)
    val sent = new PeriodicRDDCheckpointer[(VertexId, A)](interval, sc)
    var g = graph.mapVertices((id, value) => vprog(id, value, initialMsg))
    graphs.update(g)
    var messages = GraphXUtils.mapReduceTriplets(g, sendMsg, mergeMsg)
    sent.update(messages.asInstanceOf[RDD[(VertexId, A)]])
    var active = !messages.isEmpty()
    var supersteps = 0
    while (active) {
      val before = g
      g = g.joinVertices(messages)(vprog)
      graphs.update(g)
      val received = messages
      messages = GraphXUtils.mapReduceTriplets(g, sendMsg, mergeMsg, Some((received, activeDirection)))
      sent.update(messages.asInstanceOf[RDD[(VertexId, A)]])
      active = !messages.isEmpty()  // computes the messages and g's vertices: what follows drops their inputs
      received.unpersist()
      before.unpersistVertices()
      before.edges.unpersist()
      supersteps += 1
    }
    sent.unpersistDataSet()
    graphs.deleteAllCheckpoints()
    sent.deleteAllCheckpoints()
    (g, supersteps)
  }
}
