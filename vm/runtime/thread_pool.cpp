// ThreadPool: persistent workers that share one parallel loop at a time.
//
// Chunks are handed out by an atomic counter rather than split up front,
// because kernel iterations vary a lot in cost (branches, sparse skips) and a
// static split leaves cores idle behind the slowest slice.
#include "vm/runtime/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace kiln {

namespace {

// Which pool (and which worker of it) is running a body on this thread. A
// parallel_for from inside a body would otherwise wait for workers that are
// themselves busy in the outer loop; seeing this set, it runs serially instead.
thread_local const ThreadPool* tl_pool = nullptr;
thread_local int tl_worker = 0;

struct InBody {
  const ThreadPool* saved_pool;
  int saved_worker;
  InBody(const ThreadPool* p, int w) : saved_pool(tl_pool), saved_worker(tl_worker) {
    tl_pool = p;
    tl_worker = w;
  }
  ~InBody() {
    tl_pool = saved_pool;
    tl_worker = saved_worker;
  }
};

}  // namespace

int default_num_threads() {
  int machine = std::max(1, (int)std::thread::hardware_concurrency());
  int cpus = machine;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = std::max(1, CPU_COUNT(&set));
  int local = 1;
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(var)) {
      local = std::max(1, std::atoi(v));
      break;
    }
  // Bound ranks already see only their own cores; unbound ones (mpirun
  // --oversubscribe binds none) share the machine evenly.
  if (local > 1) cpus = std::min(cpus, std::max(1, machine / local));
  return cpus;
}

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads <= 0) num_threads = default_num_threads();
  num_threads_ = std::max(1, num_threads);
  // The caller is worker 0, so N threads need N - 1 helpers.
  for (int i = 1; i < num_threads_; ++i) workers_.emplace_back([this, i] { worker_main(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run_chunks(int worker) {
  InBody in(this, worker);
  for (;;) {
    // Counting chunks, not elements, keeps the counter from overflowing even
    // when n is close to INT64_MAX: it passes job_chunks_ by at most one per thread.
    int64_t k = next_chunk_.fetch_add(1, std::memory_order_relaxed);
    if (k >= job_chunks_) return;
    int64_t begin = k * job_chunk_;
    int64_t end = begin + std::min(job_chunk_, job_n_ - begin);
    try {
      (*job_)(begin, end, worker);
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu_);
      if (!error_) error_ = std::current_exception();
      // Nobody takes another chunk once one has failed.
      next_chunk_.store(job_chunks_, std::memory_order_relaxed);
      return;
    }
  }
}

void ThreadPool::worker_main(int id) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_chunks(id);
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (--active_ == 0) done_cv_.notify_one();
    }
  }
}

void ThreadPool::parallel_for(int64_t n, int64_t chunk,
                              const std::function<void(int64_t, int64_t, int)>& body) {
  if (n <= 0) return;
  if (chunk <= 0) chunk = std::max<int64_t>(1, n / ((int64_t)num_threads_ * 8));
  chunk = std::min(chunk, n);

  // Nested call from one of this pool's bodies: every worker may be busy in the
  // outer loop, so run it here, in order, as the same worker.
  if (tl_pool == this) {
    for (int64_t b = 0; b < n; b += std::min(chunk, n - b))
      body(b, b + std::min(chunk, n - b), tl_worker);
    return;
  }

  std::lock_guard<std::mutex> call(call_mu_);
  int64_t chunks = (n - 1) / chunk + 1;
  if (workers_.empty() || chunks == 1) {
    // Waking workers costs more than one chunk of work.
    InBody in(this, 0);
    for (int64_t b = 0; b < n; b += std::min(chunk, n - b))
      body(b, b + std::min(chunk, n - b), 0);
    return;
  }

  {
    std::lock_guard<std::mutex> lk(mu_);
    job_ = &body;
    job_n_ = n;
    job_chunk_ = chunk;
    job_chunks_ = chunks;
    next_chunk_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    active_ = (int)workers_.size();
    ++generation_;
  }
  cv_.notify_all();
  run_chunks(0);
  std::exception_ptr err;
  {
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return active_ == 0; });
    job_ = nullptr;
    err = error_;
    error_ = nullptr;
  }
  if (err) std::rethrow_exception(err);
}

}  // namespace kiln
