package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.MockNodes;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.junit.Test;

/**
 * Inside FifoScheduler's pass a node shows no free resource but keeps any over-commitment, so
 * FifoScheduler's placement skips it while YARN's over-commit handling sees the truth.
 */
public class HareNodeTest {

  @Test(timeout = 60_000)
  public void showsOnlyTheNegativePartInsideTheFifoPass() {
    HareNode n = new HareNode(MockNodes.newNodeInfo(0, Resource.newInstance(8192, 8)));
    Resource[] seen = new Resource[1];
    FifoPass.run(() -> seen[0] = n.getUnallocatedResource());
    assertEquals(Resources.none(), seen[0]);
    assertEquals(Resource.newInstance(8192, 8), n.getUnallocatedResource());

    n.updateTotalResource(Resource.newInstance(4096, 8));
    n.deductUnallocatedResource(Resource.newInstance(6144, 2)); // over-committed by 2 GB
    FifoPass.run(() -> seen[0] = n.getUnallocatedResource());
    assertEquals(Resource.newInstance(-2048, 0), seen[0]);
    assertEquals(Resource.newInstance(-2048, 6), n.getUnallocatedResource());
  }
}
