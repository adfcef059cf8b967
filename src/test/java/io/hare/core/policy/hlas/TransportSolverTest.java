package io.hare.core.policy.hlas;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Random;
import org.junit.Test;

/** The matcher's transportation solver against hand-solved and brute-forced instances. */
public class TransportSolverTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  private static double cost(int[][] flow, double[][] cost) {
    double c = 0;
    for (int i = 0; i < flow.length; i++) {
      for (int j = 0; j < flow[i].length; j++) {
        c += flow[i][j] == 0 ? 0 : flow[i][j] * cost[i][j];
      }
    }
    return c;
  }

  @Test(timeout = 60_000)
  public void highGainModelTakesTheFastType() {
    // cnn is 7x slower on the slow type, gnn 2x: one GPU of each, one task of each
    double[][] cost = {{1, 7}, {1, 2}};
    int[][] flow = TransportSolver.solve(new int[] {1, 1}, new int[] {1, 1}, cost);
    assertArrayEquals(new int[] {1, 0}, flow[0]);
    assertArrayEquals(new int[] {0, 1}, flow[1]);
  }

  @Test(timeout = 60_000)
  public void forbiddenArcsAreNeverUsed() {
    // row 0 can only use column 1; the cheaper column 1 must still go to it
    double[][] cost = {{INF, 5}, {1, 1.5}, {2, 2}};
    int[][] flow = TransportSolver.solve(new int[] {2, 1, 1}, new int[] {2, 2}, cost);
    assertArrayEquals(new int[] {0, 2}, flow[0]);
    assertEquals(2, flow[1][0] + flow[2][0]);
  }

  @Test(timeout = 60_000)
  public void threeTypesHandSolved() {
    // v100/t4/k80 normalised times for a cnn-like, a gnn-like and a rec-like model
    double[][] cost = {{1, 3, 7}, {1, 1.25, 2}, {1.25, 1, INF}};
    int[][] flow = TransportSolver.solve(new int[] {1, 1, 1}, new int[] {1, 1, 1}, cost);
    // cnn -> v100 (1), rec -> t4 (1), gnn -> k80 (2): total 4, the only optimum
    assertArrayEquals(new int[] {1, 0, 0}, flow[0]);
    assertArrayEquals(new int[] {0, 0, 1}, flow[1]);
    assertArrayEquals(new int[] {0, 1, 0}, flow[2]);
  }

  @Test(timeout = 60_000)
  public void matchesBruteForceOnSmallRandomInstances() {
    Random r = new Random(3);
    for (int round = 0; round < 300; round++) {
      int rows = 1 + r.nextInt(3);
      int cols = 1 + r.nextInt(3);
      int[] cap = new int[cols];
      for (int j = 0; j < cols; j++) {
        cap[j] = r.nextInt(3);
      }
      double[][] cost = new double[rows][cols];
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          cost[i][j] = r.nextInt(5) == 0 ? INF : 1 + r.nextInt(9);
        }
      }
      int[] supply = new int[rows];
      for (int i = 0; i < rows; i++) {
        supply[i] = r.nextInt(3);
      }
      double best = brute(supply, cap.clone(), cost, 0);
      if (best == INF) {
        continue; // infeasible: the matcher never asks for it
      }
      int[][] flow = TransportSolver.solve(supply, cap, cost);
      for (int i = 0; i < rows; i++) {
        int shipped = 0;
        for (int j = 0; j < cols; j++) {
          shipped += flow[i][j];
        }
        assertEquals("supply of row " + i, supply[i], shipped);
      }
      for (int j = 0; j < cols; j++) {
        int used = 0;
        for (int i = 0; i < rows; i++) {
          used += flow[i][j];
        }
        assertTrue("capacity of column " + j, used <= cap[j]);
      }
      assertEquals("instance " + round, best, cost(flow, cost), 1e-9);
    }
  }

  /** Minimum cost by trying every column for every unit, row by row. */
  private static double brute(int[] supply, int[] cap, double[][] cost, int row) {
    if (row == supply.length) {
      return 0;
    }
    return units(supply, cap, cost, row, supply[row]);
  }

  private static double units(int[] supply, int[] cap, double[][] cost, int row, int left) {
    if (left == 0) {
      return brute(supply, cap, cost, row + 1);
    }
    double best = INF;
    for (int j = 0; j < cap.length; j++) {
      if (cap[j] > 0 && cost[row][j] != INF) {
        cap[j]--;
        best = Math.min(best, cost[row][j] + units(supply, cap, cost, row, left - 1));
        cap[j]++;
      }
    }
    return best;
  }
}
