// The Eigen type behind linalg::Matrix, for this folder's .cpp files only
// (sparse.h keeps Eigen out of everything else).
#pragma once
#include <Eigen/SparseCore>

#include "vm/linalg/sparse.h"

namespace kiln::linalg {

using Sparse = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

struct Matrix {
  Sparse m;
};

}  // namespace kiln::linalg
