// ThreadPool: persistent workers that share one parallel loop at a time.
//
// Chunks are handed out by an atomic counter rather than split up front,
// because kernel iterations vary a lot in cost (branches, sparse skips) and a
// static split leaves cores idle behind the slowest slice.
//
// Waking a worker that sleeps on a condition variable costs tens of
// microseconds here (a futex and, in a VM, an inter-processor interrupt):
// more than a small sweep's whole work. So a worker that finishes a job spins
// a little (kSpinNs) watching the job word before it sleeps, and the caller
// never waits for a worker that has not joined: it closes the job when its
// own chunks run out and waits only for the workers inside it.
//
// The job word (generation_, always through std::atomic_ref):
//   bits 63..32  the job's generation, bumped by each parallel_for
//   kOpen        workers may still join (set by the publish, cleared by the close)
//   kAsleep      the caller sleeps on done_cv_ until the count is 0
//   kInside      workers inside the job (joined and not yet left)
// Memory order:
//   - the caller writes job_, job_n_, ... and next_chunk_, then stores the word
//     (seq_cst, so release); a worker joins with a CAS that acquires it, so it
//     reads this job's fields. A worker that finds the job closed never reads
//     them, so the caller may reuse them as soon as the count is 0.
//   - a worker leaves with a fetch_sub (release) after its last chunk; the
//     caller's close and its wait load the word with acquire, and the leaves
//     form one release sequence, so the body's writes on every thread are
//     visible when parallel_for returns.
//   - sleeping: a worker adds itself to active_ (seq_cst) under mu_, then
//     loads the word (seq_cst); the publish stores the word, then loads
//     active_ (seq_cst). In the single total order one of them sees the
//     other: the worker sees the new generation and does not sleep, or the
//     caller sees a sleeper, takes mu_ (so the sleeper is inside cv_.wait)
//     and notifies. The caller's kAsleep is the same handshake on one word:
//     set by a fetch_or under mu_, seen by the last worker's fetch_sub.
#include "vm/runtime/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
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

constexpr uint64_t kGeneration = 1ull << 32;
constexpr uint64_t kOpen = 1ull << 31;
constexpr uint64_t kAsleep = 1ull << 30;
constexpr uint64_t kInside = kAsleep - 1;

// How long a worker watches for the next job, and the caller for the last
// workers to leave, before sleeping. A frame's kernels follow each other
// within microseconds, so this covers a run of small launches; a program that
// stops launching (waiting for input, drawing a GUI) costs each worker this
// much CPU once, then nothing.
constexpr int64_t kSpinNs = 50'000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls ready() for up to kSpinNs; true once it holds. Reads the clock every
// 32 polls, and yields the core now and then so that a thread waiting on this
// core (the machine may have more threads than cores) is not held off for
// the whole spin.
template <class Ready>
bool spin_until(Ready&& ready) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kSpinNs);
  for (unsigned i = 1;; i++) {
    if (ready()) return true;
    cpu_relax();
    if (i % 32 == 0) {
      if (std::chrono::steady_clock::now() >= deadline) return ready();
      if (i % 512 == 0) sched_yield();
    }
  }
}

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
  std::atomic_ref<bool>(stop_).store(true, std::memory_order_seq_cst);
  // A worker about to sleep holds mu_ from its last look at stop_ until it is
  // inside cv_.wait: taking mu_ here means the notify below reaches it.
  { std::lock_guard<std::mutex> lk(mu_); }
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
  std::atomic_ref<uint64_t> word(generation_);
  std::atomic_ref<int> asleep(active_);
  std::atomic_ref<bool> stop(stop_);
  uint64_t seen = 0;  // the generation of the last job this worker looked at
  auto news = [&](std::memory_order mo) { return word.load(mo) / kGeneration != seen || stop.load(mo); };
  for (;;) {
    if (!spin_until([&] { return news(std::memory_order_acquire); })) {
      std::unique_lock<std::mutex> lk(mu_);
      asleep.fetch_add(1, std::memory_order_seq_cst);
      cv_.wait(lk, [&] { return news(std::memory_order_seq_cst); });
      asleep.fetch_sub(1, std::memory_order_relaxed);
    }
    if (stop.load(std::memory_order_acquire)) return;
    // Join the job unless its caller has closed it (then it may already be
    // reusing job_ for the next one: look, don't touch).
    uint64_t w = word.load(std::memory_order_acquire);
    for (;;) {
      seen = w / kGeneration;
      if (!(w & kOpen)) break;
      if (word.compare_exchange_weak(w, w + 1, std::memory_order_acquire, std::memory_order_acquire)) {
        run_chunks(id);
        uint64_t before = word.fetch_sub(1, std::memory_order_seq_cst);
        if ((before & kInside) == 1 && (before & kAsleep)) {
          std::lock_guard<std::mutex> lk(mu_);  // the caller is inside done_cv_.wait
          done_cv_.notify_one();
        }
        break;
      }
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

  // No worker is inside a job here (the last call waited for them), so the
  // job's fields are ours until the store below publishes them.
  std::atomic_ref<uint64_t> word(generation_);
  job_ = &body;
  job_n_ = n;
  job_chunk_ = chunk;
  job_chunks_ = chunks;
  next_chunk_.store(0, std::memory_order_relaxed);
  error_ = nullptr;
  word.store((word.load(std::memory_order_relaxed) / kGeneration + 1) * kGeneration | kOpen,
             std::memory_order_seq_cst);
  if (std::atomic_ref<int>(active_).load(std::memory_order_seq_cst) > 0) {
    { std::lock_guard<std::mutex> lk(mu_); }
    cv_.notify_all();
  }
  run_chunks(0);
  // Close the job: a worker that wakes from now on stays out of it.
  if (word.fetch_and(~kOpen, std::memory_order_acq_rel) & kInside) {
    auto out = [&] { return !(word.load(std::memory_order_acquire) & kInside); };
    if (!spin_until(out)) {
      std::unique_lock<std::mutex> lk(mu_);
      if (word.fetch_or(kAsleep, std::memory_order_seq_cst) & kInside) done_cv_.wait(lk, out);
      // kAsleep stays set until the next publish overwrites the word: no
      // worker is inside to read it.
    }
  }
  job_ = nullptr;
  std::exception_ptr err = error_;
  error_ = nullptr;
  if (err) std::rethrow_exception(err);
}

}  // namespace kiln
