// Baseline for sparse_solve.py: the same 2-D Poisson matrix (5-point stencil
// on an N x N grid, Dirichlet boundary) assembled from triplets and solved
// with the same Eigen calls ti.linalg makes (vm/linalg): setFromTriplets,
// SimplicialLLT with AMD ordering (analyzePattern, factorize, solve).
// Build: g++ -O3 -march=native -I/usr/include/eigen3 bench/sparse_solve.cpp
#include <Eigen/Sparse>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using Clock = std::chrono::steady_clock;
static double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

int main(int argc, char** argv) {
  const int N = argc > 1 ? std::atoi(argv[1]) : 316;  // 316^2 ~ 10^5 unknowns
  const int n = N * N;
  double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
  double checksum = 0;
  for (int rep = 0; rep < 3; rep++) {
    auto t0 = Clock::now();
    std::vector<int> ij(2 * 5 * (size_t)n);
    std::vector<double> v(5 * (size_t)n);
    int count = 0;
    auto add = [&](int i, int j, double x) {
      ij[2 * (size_t)count] = i;
      ij[2 * (size_t)count + 1] = j;
      v[(size_t)count++] = x;
    };
    for (int a = 0; a < N; a++)
      for (int b = 0; b < N; b++) {
        int r = a * N + b;
        add(r, r, 4.0);
        if (a > 0) add(r, r - N, -1.0);
        if (a < N - 1) add(r, r + N, -1.0);
        if (b > 0) add(r, r - 1, -1.0);
        if (b < N - 1) add(r, r + 1, -1.0);
      }
    double assemble = ms_since(t0);
    auto t1 = Clock::now();
    std::vector<Eigen::Triplet<double>> t;
    t.reserve((size_t)count);
    for (int k = 0; k < count; k++) t.emplace_back(ij[2 * (size_t)k], ij[2 * (size_t)k + 1], v[(size_t)k]);
    Eigen::SparseMatrix<double> A(n, n);
    A.setFromTriplets(t.begin(), t.end());
    A.makeCompressed();
    double build = ms_since(t1);
    auto t2 = Clock::now();
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> llt;
    llt.analyzePattern(A);
    double analyze = ms_since(t2);
    auto t3 = Clock::now();
    llt.factorize(A);
    double factor = ms_since(t3);
    Eigen::VectorXd rhs(n);
    for (int r = 0; r < n; r++) rhs[r] = 1.0 + (r % 7) * 0.125;
    auto t4 = Clock::now();
    Eigen::VectorXd x = llt.solve(rhs);
    double solve = ms_since(t4);
    double ph[5] = {assemble, build, analyze, factor, solve};
    for (int k = 0; k < 5; k++) best[k] = std::min(best[k], ph[k]);
    checksum = x.sum();
  }
  double total = 0;
  for (double b : best) total += b;
  std::printf("checksum %.10g\nassemble_ms %f\nbuild_ms %f\nanalyze_ms %f\nfactorize_ms %f\nsolve_ms %f\ntime_ms %f\n", checksum,
              best[0], best[1], best[2], best[3], best[4], total);
}
