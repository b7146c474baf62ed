/* SPDX-License-Identifier: MIT */
/*
 * Dijkstra's shortest paths (Dijkstra 1959; MiBench's network group) on a small directed
 * graph: 32 nodes, an adjacency matrix of pseudo-random weights 1..99 (about a third of the
 * pairs joined, and a ring through every node so that all are reachable), the O(V^2) form
 * that scans for the nearest unsettled node. From each of 2 sources.
 *
 * Self-check from what a shortest-path tree is: the source at 0, no edge that would shorten
 * a distance (d[v] <= d[u] + w(u, v) for every edge), and every other node reached through its
 * recorded predecessor by an edge that gives exactly its distance. The middle point falls
 * after the first source.
 */
#include "workloads.h"

#define NODES   32u
#define SOURCES 2u
#define NONE    0xFFFFu

static bool shortest_paths(const uint8_t w[NODES][NODES], unsigned source)
{
  uint32_t dist[NODES];
  uint16_t pred[NODES];
  bool settled[NODES];
  for (unsigned v = 0; v < NODES; v++) dist[v] = UINT32_MAX, pred[v] = NONE, settled[v] = false;
  dist[source] = 0;
  for (unsigned round = 0; round < NODES; round++) {
    unsigned u = NONE;
    for (unsigned v = 0; v < NODES; v++)
      if (!settled[v] && dist[v] != UINT32_MAX && (u == NONE || dist[v] < dist[u])) u = v;
    if (u == NONE) break;
    settled[u] = true;
    for (unsigned v = 0; v < NODES; v++) {
      if (w[u][v] == 0 || settled[v]) continue;
      uint32_t d = dist[u] + w[u][v];
      if (d < dist[v]) dist[v] = d, pred[v] = (uint16_t)u;
    }
  }
  bool ok = dist[source] == 0;
  for (unsigned u = 0; u < NODES; u++)
    for (unsigned v = 0; v < NODES; v++)
      if (w[u][v] != 0 && dist[v] > dist[u] + w[u][v]) ok = false;
  for (unsigned v = 0; v < NODES; v++) {
    if (v == source) continue;
    unsigned p = pred[v];
    if (p == NONE || w[p][v] == 0 || dist[v] != dist[p] + w[p][v]) ok = false;
  }
  return ok;
}

bool wl_dijkstra(wl_hook hook, void *ctx)
{
  uint8_t w[NODES][NODES];
  uint32_t seed = 0xD1325u;
  hook(WL_START, ctx);
  for (unsigned u = 0; u < NODES; u++)
    for (unsigned v = 0; v < NODES; v++) {
      uint32_t r = wl_random(&seed);
      w[u][v] = u != v && r % 3u == 0 ? (uint8_t)(1u + (r >> 8) % 99u) : 0;
    }
  for (unsigned u = 0; u < NODES; u++) w[u][(u + 1u) % NODES] = (uint8_t)(50u + u); /* the ring */
  bool ok = true;
  for (unsigned s = 0; s < SOURCES; s++) {
    if (s == SOURCES / 2u) hook(WL_MIDDLE, ctx);
    ok &= shortest_paths(w, s * (NODES / SOURCES));
  }
  hook(WL_END, ctx);
  return ok;
}
