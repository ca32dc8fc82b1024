// What the CPU backend's scheduler (scheduler.cpp) reports when a block goes wrong: deadlocks,
// barrier divergence, and what CUDA leaves undefined but lets run (a barrier that part of the
// block reaches, a collective whose mask names lanes that are not there), naming the threads,
// where they wait and the kernel's launch. Only a failing block comes here.
#include "runtime.h"
#include <stdio.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>

namespace cucc {
// ---- diagnostics: "threads 0-15,32 wait at __syncthreads at f.cu:12; threads 16-31 ..."
static const char *wait_name(const Thread &t)
{
    static const char *warp_ops[] = {"__syncwarp",       "__shfl_sync",     "__shfl_up_sync",
                                     "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                                     "__all_sync",       "__any_sync",      "__match_any_sync"};
    switch (t.state) {
    case BAR:
        return "__syncthreads";
    case WARP:
        return warp_ops[t.op];
    case STEP:
        return t.op == ACTIVEMASK ? "__activemask" : "a volatile access";
    }
    return "?";
}

static std::string ranges(const std::vector<int> &ids)
{
    std::string s;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            j++;
        s += (s.empty() ? "" : ",") + std::to_string(ids[i]) +
             (j > i ? "-" + std::to_string(ids[j]) : "");
        i = j + 1;
    }
    return s;
}

std::string who_waits(Worker *w)
{
    std::vector<const Thread *>
        sites; // one thread per distinct (wait, file, line), in thread order
    std::vector<std::vector<int>> ids;
    for (int i = 0; i < w->n; i++) {
        const Thread &t = w->threads[i];
        if (t.state == DONE || t.state == READY)
            continue;
        size_t k = 0;
        while (k < sites.size() && !(sites[k]->state == t.state && sites[k]->op == t.op &&
                                     sites[k]->line == t.line && !strcmp(sites[k]->file, t.file)))
            k++;
        if (k == sites.size())
            sites.push_back(&t), ids.emplace_back();
        ids[k].push_back(i);
    }
    std::string s;
    for (size_t k = 0; k < sites.size(); k++)
        s += std::string(k ? "; " : "") + "threads " + ranges(ids[k]) + " wait at " +
             wait_name(*sites[k]) + " at " + sites[k]->file + ":" + std::to_string(sites[k]->line);
    return s;
}

void report(Worker *w, const char *what, const std::string &why)
{
    const Kernel &k = w->job->k;
    w->failed = true;
    if (w->job->failed.exchange(true))
        return; // one line per launch, whatever the workers
    fprintf(stderr, "cuda-cpu: %s in kernel %s (launched at %s:%d), block (%u,%u,%u): %s\n", what,
            k.name, k.file, k.line, blockIdx.x, blockIdx.y, blockIdx.z, why.c_str());
}

// What CUDA leaves undefined but lets run: a warning, once per launch, or with
// CUDA_CPU_STRICT=1 (as the grader runs) an error that fails the launch.
void undefined(Worker *w, const char *what, const std::string &why)
{
    if (w->job->strict)
        return report(w, what, why + " (an error under CUDA_CPU_STRICT=1)");
    if (w->job->warned.exchange(true))
        return;
    const Kernel &k = w->job->k;
    fprintf(stderr,
            "cuda-cpu: warning: %s in kernel %s (launched at %s:%d), block (%u,%u,%u): %s\n", what,
            k.name, k.file, k.line, blockIdx.x, blockIdx.y, blockIdx.z, why.c_str());
}

// The threads of the block that have returned, and where they were last seen waiting.
std::string who_returned(Worker *w)
{
    std::vector<int> after, before;
    const Thread *site = nullptr;
    for (int i = 0; i < w->n; i++) {
        const Thread &t = w->threads[i];
        if (t.state != DONE)
            continue;
        (t.file ? after : before).push_back(i);
        if (t.file && !site)
            site = &t;
    }
    std::string s;
    if (!before.empty())
        s += "threads " + ranges(before) + " returned without waiting anywhere";
    if (!after.empty())
        s += std::string(s.empty() ? "" : "; ") + "threads " + ranges(after) +
             " returned, last seen waiting at " + site->file + ":" + std::to_string(site->line);
    return s;
}

// A collective whose mask names lanes that have exited or do not exist (past the block's
// last thread): undefined in CUDA; here the lanes that are there go on without them.
void missing_lanes(Thread *t, unsigned lanes)
{
    int warp = t->id >> 5, there = std::min(32, t->w->n - 32 * warp);
    std::vector<int> gone, absent;
    for (int l = 0; l < 32; l++)
        if (lanes >> l & 1)
            (l < there ? gone : absent).push_back(l);
    std::string s = std::string(wait_name(*t)) + " at " + t->file + ":" + std::to_string(t->line) +
                    " in warp " + std::to_string(warp) + ": its mask names lanes ";
    if (!gone.empty())
        s += ranges(gone) + ", which have returned";
    if (!absent.empty())
        s += std::string(gone.empty() ? "" : ", and ") + ranges(absent) +
             ", which do not exist (the block has " + std::to_string(t->w->n) + " threads)";
    undefined(t->w, "collective with lanes that are not there", s);
}
} // namespace cucc
