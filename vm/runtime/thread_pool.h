// A fixed pool of worker threads that runs parallel loops in dynamic chunks.
// The calling thread takes part, so a pool of N threads uses N-1 workers.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln {

// Threads when ti.init gives no cpu_max_num_threads: the cores this process
// may run on (its affinity mask, which `mpirun --bind-to core` narrows to each
// rank's own), and under MPI at most the machine's cores divided by the ranks
// on this node (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, MPICH's
// MPI_LOCALNRANKS), so K ranks never run more threads than there are cores.
int default_num_threads();

struct ThreadPool {
  explicit ThreadPool(int num_threads);  // <= 0: default_num_threads()
  ~ThreadPool();
  int size() const { return num_threads_; }

  // Runs body(begin, end, worker) over [0, n) split into chunks of `chunk`
  // (0 = choose), handing chunks out dynamically; worker is in [0, size()).
  // Returns when every chunk is done. If a body throws, the first exception is
  // rethrown on the calling thread after all workers stop taking chunks.
  void parallel_for(int64_t n, int64_t chunk,
                    const std::function<void(int64_t begin, int64_t end, int worker)>& body);

 private:
  // One job at a time. generation_ is the job word (generation, open, caller
  // asleep, workers in the job), active_ counts workers asleep on cv_, stop_
  // ends them: the three only through std::atomic_ref (the protocol and its
  // memory order: thread_pool.cpp). Participants pull chunk numbers from
  // next_chunk_; job_ stays valid while any worker is in the job.
  int num_threads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex call_mu_;  // serializes parallel_for calls from different outside threads
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int64_t, int64_t, int)>* job_ = nullptr;
  int64_t job_n_ = 0, job_chunk_ = 1, job_chunks_ = 0;
  std::atomic<int64_t> next_chunk_{0};
  int active_ = 0;  // workers asleep on cv_
  uint64_t generation_ = 0;  // generation << 32 | kOpen | kAsleep | workers in
  bool stop_ = false;
  std::exception_ptr error_;  // first exception of the current job (under mu_)
  void worker_main(int id);
  void run_chunks(int worker);
};

}  // namespace kiln
