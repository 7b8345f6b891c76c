// Input of operator-sites.test: one construct per mutation operator, and
// the code where no site may be drawn. Parsed, never compiled into fa-opt.
#include <algorithm>
#include <cassert>
#include <limits>

namespace arith {
enum class CmpIPredicate { slt, sle, eq, ne };
struct Builder {};
struct MinSIOp {
  static int create(Builder &, int, int x, int y) { return x < y ? x : y; }
};
struct SubIOp {
  static int create(Builder &, int, int x, int y) { return x - y; }
};
struct CmpIOp {
  static int create(Builder &, int, CmpIPredicate, int x, int y) {
    return x < y;
  }
};
} // namespace arith

void barrier();
template <typename T, int N> struct SmallVector { T items[N]; };

int rows(int length, int block, arith::Builder &b) {
  int tiles = (length + block - 1) / block;
  if (length <= block && tiles != 1)
    barrier();
  float init = -std::numeric_limits<float>::infinity();
  SmallVector<int, 4> unused;
  assert(length < 100 && "no site in an assertion");
  arith::CmpIPredicate predicate = arith::CmpIPredicate::slt;
  tiles = std::min(tiles, arith::MinSIOp::create(b, 0, length, block));
  tiles += arith::SubIOp::create(b, 0, length, block) * 2;
  return tiles + static_cast<int>(init) + static_cast<int>(predicate);
}

// A comparison's operands swapped: a site where the predicate is not
// symmetric, none where it is (ne means the same either way).
int compares(int x, int y, arith::Builder &b) {
  int before = arith::CmpIOp::create(b, 0, arith::CmpIPredicate::slt, x, y);
  int after = arith::CmpIOp::create(b, 0, arith::CmpIPredicate::ne, x, y);
  return before + after;
}
