/* SPDX-License-Identifier: MIT */
/*
 * The table of workloads (workloads.h). Footprints: the bytes of data each run works on,
 * counted from its arrays (code and constant tables left out).
 */
#include "workloads.h"

const wl_workload wl_workloads[WL_COUNT] = {
    {"sha256", wl_sha256, 1008u + 256u + 128u},    /* message, schedule, padded tail */
    {"crc32", wl_crc32, 1024u + 1024u},            /* table, data */
    {"bitcount", wl_bitcount, 1024u + 256u},       /* words, byte table */
    {"fft", wl_fft, 512u + 1024u},                 /* twiddles, samples */
    {"qsort", wl_qsort, 2400u + 256u},             /* array, range stack */
    {"dijkstra", wl_dijkstra, 1024u + 128u + 64u}, /* matrix, distances, predecessors */
    {"strsearch", wl_strsearch, 1024u + 256u * sizeof(size_t)}, /* text, shift table */
};

const char *const wl_point_names[WL_POINTS] = {"start", "middle", "end"};
