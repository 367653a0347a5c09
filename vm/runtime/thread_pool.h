// A fixed pool of worker threads that runs parallel loops in dynamic chunks.
// The calling thread takes part, so a pool of N threads uses N-1 workers.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln {

struct ThreadPool {
  explicit ThreadPool(int num_threads);  // <= 0: hardware concurrency
  ~ThreadPool();
  int size() const { return num_threads_; }

  // Runs body(begin, end, worker) over [0, n) split into chunks of `chunk`
  // (0 = choose), handing chunks out dynamically; worker is in [0, size()).
  // Returns when every chunk is done. If a body throws, the first exception is
  // rethrown on the calling thread after all workers stop taking chunks.
  void parallel_for(int64_t n, int64_t chunk,
                    const std::function<void(int64_t begin, int64_t end, int worker)>& body);

 private:
  // implementation-defined members (H5 fills in)
  int num_threads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int64_t, int64_t, int)>* job_ = nullptr;
  int64_t job_n_ = 0, job_chunk_ = 1;
  int64_t next_ = 0;
  int active_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  void worker_main(int id);
};

}  // namespace kiln
