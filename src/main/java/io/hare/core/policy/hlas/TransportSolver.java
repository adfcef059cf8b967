package io.hare.core.policy.hlas;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Exact minimum-cost transportation on a tiny dense instance: {@code rows} sources with integer
 * supplies, {@code cols} sinks with integer capacities, a cost per unit on each (row, col) arc
 * ({@link Double#POSITIVE_INFINITY} forbids the arc). Every unit of supply must be shipped.
 *
 * <p>Successive shortest paths with Bellman-Ford on the residual graph, pushing the bottleneck
 * each time, so the number of augmentations is bounded by the arcs, not by the units shipped.
 * Meant for a handful of models by a handful of GPU types, solved on every offer of free GPUs:
 * pure Java on purpose, as a native min-cost-flow call would cost more than the whole decision.
 * Deterministic: ties resolve towards lower indices.
 */
final class TransportSolver {

  private TransportSolver() {}

  /**
   * @return flow[row][col], units shipped on each arc
   * @throws IllegalArgumentException if the supplies cannot all be shipped
   */
  static int[][] solve(int[] supply, int[] capacity, double[][] cost) {
    int rows = supply.length;
    int cols = capacity.length;
    if (rows == 1) { // one model: cheapest types first is optimal
      return new int[][] {fillCheapest(supply[0], capacity, cost[0])};
    }
    if (cols == 1) {
      int[][] out = new int[rows][1];
      for (int i = 0; i < rows; i++) {
        out[i][0] = supply[i];
      }
      return out;
    }
    if (cols == 2) {
      return twoColumns(supply, capacity, cost);
    }
    // node 0 = source, 1..rows = rows, rows+1..rows+cols = cols, rows+cols+1 = sink
    int n = rows + cols + 2;
    int sink = n - 1;
    int[][] cap = new int[n][n];
    double[][] w = new double[n][n];
    for (int i = 0; i < rows; i++) {
      cap[0][1 + i] = supply[i];
      for (int j = 0; j < cols; j++) {
        if (cost[i][j] != Double.POSITIVE_INFINITY) {
          cap[1 + i][1 + rows + j] = Integer.MAX_VALUE / 2;
          w[1 + i][1 + rows + j] = cost[i][j];
          w[1 + rows + j][1 + i] = -cost[i][j];
        }
      }
    }
    for (int j = 0; j < cols; j++) {
      cap[1 + rows + j][sink] = capacity[j];
    }
    int[][] flow = new int[n][n];
    int need = Arrays.stream(supply).sum();
    double[] dist = new double[n];
    int[] prev = new int[n];
    while (need > 0) {
      Arrays.fill(dist, Double.POSITIVE_INFINITY);
      Arrays.fill(prev, -1);
      dist[0] = 0;
      for (int iter = 0; iter < n; iter++) {
        boolean changed = false;
        for (int u = 0; u < n; u++) {
          if (dist[u] == Double.POSITIVE_INFINITY) {
            continue;
          }
          for (int v = 0; v < n; v++) {
            if (residual(cap, flow, u, v) > 0 && dist[u] + w[u][v] < dist[v] - 1e-12) {
              dist[v] = dist[u] + w[u][v];
              prev[v] = u;
              changed = true;
            }
          }
        }
        if (!changed) {
          break;
        }
      }
      if (prev[sink] < 0) {
        throw new IllegalArgumentException("infeasible transport: " + need + " units unplaced");
      }
      int push = need;
      for (int v = sink; v != 0; v = prev[v]) {
        push = Math.min(push, residual(cap, flow, prev[v], v));
      }
      for (int v = sink; v != 0; v = prev[v]) {
        int u = prev[v];
        if (flow[v][u] > 0) { // cancel reverse flow first
          int back = Math.min(push, flow[v][u]);
          flow[v][u] -= back;
          flow[u][v] += push - back;
        } else {
          flow[u][v] += push;
        }
      }
      need -= push;
    }
    int[][] out = new int[rows][cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        out[i][j] = flow[1 + i][1 + rows + j] - flow[1 + rows + j][1 + i];
      }
    }
    return out;
  }

  /**
   * Two sinks: shipping x_i of row i to column 0 costs x_i (c_i0 - c_i1) on top of sending all
   * to column 1, so rows go to column 0 by increasing difference, while it pays, and then as far
   * as column 1's capacity forces.
   */
  private static int[][] twoColumns(int[] supply, int[] capacity, double[][] cost) {
    int rows = supply.length;
    int[][] out = new int[rows][2];
    int total = 0;
    int room0 = capacity[0];
    List<Integer> free = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      total += supply[i];
      if (cost[i][1] == Double.POSITIVE_INFINITY) {
        out[i][0] = supply[i]; // only column 0
        room0 -= supply[i];
      } else if (cost[i][0] != Double.POSITIVE_INFINITY) {
        free.add(i);
      }
    }
    free.sort((a, b) -> Double.compare(cost[a][0] - cost[a][1], cost[b][0] - cost[b][1]));
    int mustTo0 = total - capacity[1];
    for (int i = 0; i < rows; i++) {
      mustTo0 -= out[i][0];
    }
    for (int i : free) {
      boolean pays = cost[i][0] - cost[i][1] < 0;
      int give = Math.min(supply[i], room0);
      if (!pays) {
        give = Math.min(give, Math.max(0, mustTo0));
      }
      out[i][0] = give;
      room0 -= give;
      mustTo0 -= give;
    }
    for (int i = 0; i < rows; i++) {
      out[i][1] = supply[i] - out[i][0];
    }
    if (room0 < 0 || mustTo0 > 0) {
      throw new IllegalArgumentException("infeasible transport over two types");
    }
    return out;
  }

  private static int[] fillCheapest(int supply, int[] capacity, double[] cost) {
    Integer[] order = new Integer[cost.length];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Double.compare(cost[a], cost[b]));
    int[] out = new int[cost.length];
    for (int i : order) {
      if (supply == 0 || cost[i] == Double.POSITIVE_INFINITY) {
        break;
      }
      out[i] = Math.min(supply, capacity[i]);
      supply -= out[i];
    }
    if (supply > 0) {
      throw new IllegalArgumentException("infeasible transport: " + supply + " units unplaced");
    }
    return out;
  }

  private static int residual(int[][] cap, int[][] flow, int u, int v) {
    return cap[u][v] - flow[u][v] + flow[v][u];
  }
}
